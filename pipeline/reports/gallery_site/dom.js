// Small DOM helpers every view uses. Registers window.Blackhole.dom.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);

  function byId(id) {
    return document.getElementById(id);
  }

  // A new element: element("span", "class names", "text").
  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined && text !== null) made.textContent = text;
    return made;
  }

  function setDisabled(button, disabled) {
    // aria-disabled, not disabled: a disabled button drops keyboard focus to the page.
    button.setAttribute("aria-disabled", disabled ? "true" : "false");
  }

  function isDisabled(button) {
    return button.getAttribute("aria-disabled") === "true";
  }

  // A link to `href` ("#deal=ID"), or hidden when there is none (null).
  function showLink(link, href) {
    link.hidden = !href;
    if (href) link.setAttribute("href", href);
  }

  function tierBadge(tier) {
    return element("span", "tier-badge tier-" + tier, tier);
  }

  const api = {
    byId: byId,
    element: element,
    setDisabled: setDisabled,
    isDisabled: isDisabled,
    showLink: showLink,
    tierBadge: tierBadge,
  };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).dom = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
