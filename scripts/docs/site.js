// The docs site's one script, on every page: a copy button on every code block, and the search
// box of the header, over every page (search-index.json, made by the build with MiniSearch).

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
let index;

/** The index, fetched once, when the reader first types; the build says which fields it has. */
const loadIndex = async () =>
  (index ??= fetch("search-index.json")
    .then((answer) => answer.json())
    .then(({ options, index: data }) => window.MiniSearch.loadJS(data, options)));

const show = (results) => {
  list.replaceChildren(
    ...results.slice(0, 8).map(({ title, page, href }) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = href;
      link.innerHTML = "<strong></strong><span></span>";
      link.firstChild.textContent = title;
      link.lastChild.textContent = page;
      item.append(link);
      return item;
    }),
  );
  if (!results.length && input.value.trim()) list.innerHTML = "<li class='none'>No page mentions that.</li>";
  list.hidden = !input.value.trim();
};

input.addEventListener("input", async () => {
  const search = await loadIndex();
  show(search.search(input.value, { prefix: true, fuzzy: 0.2, boost: { title: 2 } }));
});
input.addEventListener("keydown", (event) => {
  if (event.key === "Enter") list.querySelector("a")?.click();
  if (event.key === "Escape") list.hidden = true;
});
document.addEventListener("click", (event) => {
  if (!event.target.closest(".search")) list.hidden = true;
});
