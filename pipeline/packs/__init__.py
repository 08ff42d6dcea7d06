"""packs."""
