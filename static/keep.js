// A page part put fresh in place (another phone saved a hand: the score sheet, the director's grid)
// keeps what the reader was on: the control with the keyboard's focus is found again in the fresh
// copy and focused (without scrolling), and the folds the reader opened stay open. Without this a
// keyboard or screen reader user was thrown back to the top of the page at every save elsewhere.

// Where an element stands: the nearest parent with an id (within ``root``) and the path of child
// indexes from it.
function placeOf(el, root) {
  const path = [];
  let node = el;
  while (node && node !== root && !node.id) {
    path.unshift(Array.prototype.indexOf.call(node.parentElement.children, node));
    node = node.parentElement;
  }
  return { anchor: node && node !== root ? node.id : null, path: path };
}

function at(root, place) {
  let node = place.anchor ? document.getElementById(place.anchor) : root;
  for (const index of place.path) node = node && node.children[index];
  return node || null;
}

// How to find the focused control again: its id; else what it leads to (a link's address, a form's
// address and the control's name) with its place, the place deciding between two controls that lead
// to the same address (the director's grid links a table's game twice).
function keyOf(el, root) {
  if (el.id) return { id: el.id };
  const form = el.closest("form");
  return { tag: el.tagName, href: el.getAttribute("href"), action: form && form.getAttribute("action"),
    name: el.getAttribute("name"), place: placeOf(el, root) };
}

function leadsAlike(el, key) {
  const form = el.closest("form");
  return el.tagName === key.tag && el.getAttribute("href") === key.href
    && (form && form.getAttribute("action")) === key.action && el.getAttribute("name") === key.name;
}

function find(root, key) {
  if (key.id) return document.getElementById(key.id);
  const there = at(root, key.place);
  if (there && leadsAlike(there, key)) return there;  // the same control at the same place
  if (key.href || key.action) {  // moved: the first that leads to the same address
    const alike = Array.prototype.find.call(root.querySelectorAll(key.tag), (el) => leadsAlike(el, key));
    if (alike) return alike;
  }
  return there && there.tagName === key.tag ? there : null;
}

// Put ``html`` in place of ``root``'s content, keeping the focus and the open folds (by their id, else
// by their place when the fresh copy has a fold there too).
export function replaceKeeping(root, html) {
  const active = document.activeElement;
  const key = active && active !== root && root.contains(active) ? keyOf(active, root) : null;
  const open = Array.prototype.map.call(root.querySelectorAll("details[open]"), (d) => (d.id ? { id: d.id } : placeOf(d, root)));
  root.innerHTML = html;
  open.forEach((fold) => {
    const again = fold.id ? document.getElementById(fold.id) : at(root, fold);
    if (again && again.tagName === "DETAILS" && root.contains(again)) again.open = true;
  });
  const again = key && find(root, key);
  if (again && typeof again.focus === "function") again.focus({ preventScroll: true });
}
