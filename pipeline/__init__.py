"""blackhole: proven-winnable, graded puzzle packs for the solitaire Black Hole."""

__version__ = "0.1.0"
