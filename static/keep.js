// A page part put fresh in place (another phone saved a hand: the score sheet, the director's grid)
// keeps what the reader was on: the control with the keyboard's focus is found again in the fresh
// copy and focused (without scrolling), and the folds the reader opened stay open. Without this a
// keyboard or screen reader user was thrown back to the top of the page at every save elsewhere.

// How to find the focused control again: its id; else what it leads to (a link's address, a form's
// address with the button's name) and its kind; else its place under the nearest parent with an id.
function keyOf(el, root) {
  if (el.id) return { id: el.id };
  const form = el.closest("form");
  const key = { tag: el.tagName, href: el.getAttribute("href"), action: form && form.getAttribute("action"),
    name: el.getAttribute("name"), path: [] };
  let node = el;
  while (node && node !== root && !node.id) {
    key.path.unshift(Array.prototype.indexOf.call(node.parentElement.children, node));
    node = node.parentElement;
  }
  key.anchor = node && node !== root ? node.id : null;
  return key;
}

function same(el, key) {
  const form = el.closest("form");
  return el.getAttribute("href") === key.href && (form && form.getAttribute("action")) === key.action
    && el.getAttribute("name") === key.name;
}

function find(root, key) {
  if (key.id) return document.getElementById(key.id);
  if (key.href || key.action) {
    const found = Array.prototype.find.call(root.querySelectorAll(key.tag), (el) => same(el, key));
    if (found) return found;
  }
  let node = key.anchor ? document.getElementById(key.anchor) : root;
  for (const index of key.path) node = node && node.children[index];
  return node && node.tagName === key.tag ? node : null;
}

// Put ``html`` in place of ``root``'s content, keeping the focus and the open folds (by their ids).
export function replaceKeeping(root, html) {
  const active = document.activeElement;
  const key = active && active !== root && root.contains(active) ? keyOf(active, root) : null;
  const open = Array.prototype.map.call(root.querySelectorAll("details[open][id]"), (d) => d.id);
  root.innerHTML = html;
  open.forEach((id) => {
    const fold = document.getElementById(id);
    if (fold && root.contains(fold)) fold.open = true;
  });
  const again = key && find(root, key);
  if (again && typeof again.focus === "function") again.focus({ preventScroll: true });
}
