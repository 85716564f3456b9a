// The docs site's one script, on every page: a copy button on every code block, the menu button
// of narrow windows, and the search box of the header, over every page (search.js ranks the
// sections of search-index.json), each result with the passage it matched.

const header = document.querySelector(".site-header");
const menu = header.querySelector(".menu");
const toggle = (open) => {
  header.classList.toggle("open", open);
  menu.setAttribute("aria-expanded", String(open));
};
menu.addEventListener("click", () => toggle(!header.classList.contains("open")));
// A link of the menu to a section of this page leaves the page where it is: the menu closes.
header.addEventListener("click", (event) => {
  if (event.target.closest("nav a")) toggle(false);
});

for (const block of document.querySelectorAll("main pre")) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy";
  button.textContent = "Copy";
  button.addEventListener("click", async () => {
    await navigator.clipboard.writeText(block.querySelector("code")?.innerText ?? block.innerText);
    button.textContent = "Copied";
    setTimeout(() => (button.textContent = "Copy"), 1500);
  });
  block.append(button);
}

const input = document.getElementById("site-search");
const list = document.getElementById("search-results");
let search;

/**
 * The search, made when the reader first types: the sections `npm run build` cut (the ones
 * payin-mcp searches), ranked by the package's own search module (search.js).
 */
const loadSearch = async () =>
  (search ??= fetch("search-index.json")
    .then((answer) => answer.json())
    .then((sections) => window.PayinSearch.createDocsSearch(sections)));

/** The passage as nodes: its text, each word that matched marked (the terms are stems: `register` marks `registering`). */
function marked(text, terms) {
  const words = new RegExp(`\\b((?:${terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\w*)`, "gi");
  return text.split(words).map((part, i) => {
    if (i % 2 === 0) return document.createTextNode(part);
    const mark = document.createElement("mark");
    mark.textContent = part;
    return mark;
  });
}

const show = (hits) => {
  list.replaceChildren(
    ...hits.map(({ section, terms }) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = section.href;
      link.innerHTML = "<strong></strong><span></span><span class='snippet'></span>";
      link.children[0].textContent = section.title;
      link.children[1].textContent = section.page;
      link.children[2].replaceChildren(...marked(window.PayinSearch.passage(section.text, terms, 200), terms));
      item.append(link);
      return item;
    }),
  );
  if (!hits.length && input.value.trim()) list.innerHTML = "<li class='none'>No page mentions that.</li>";
  list.hidden = !input.value.trim();
};

input.addEventListener("input", async () => show((await loadSearch()).search(input.value)));
input.addEventListener("keydown", (event) => {
  if (event.key === "Enter") list.querySelector("a")?.click();
  if (event.key === "Escape") list.hidden = true;
});
document.addEventListener("click", (event) => {
  if (!event.target.closest(".search")) list.hidden = true;
});
