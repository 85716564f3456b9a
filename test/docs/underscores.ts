// Whether a link's underline hides the underscores of the code it holds, read from the pixels a
// browser drew: the underscore must show as a bar of its own, apart from the underline, or there
// must be no underline. `/_sandbox/…/{session_id}` must not read `/ sandbox/…/{session id}`.
import type { Page } from "playwright-core";

/** The rows of ink in one column of pixels, in runs: [first, last] of each. */
type Runs = Array<[number, number]>;

/**
 * What is wrong with the first link on the page whose code holds both an underscore and a space:
 * the column through the underscore is compared with the column through the space (where only
 * the underline, if any, is drawn), each a run of ink rows below the text's middle. With
 * `spaced`, a link's code that holds no space (an id: `ps_…`) is given one after its underscore,
 * in the same font under the same underline, to compare with.
 */
export async function hiddenUnderscore(page: Page, { spaced = false } = {}): Promise<string | undefined> {
  const found = await page.evaluate((spaced) => {
    for (const code of document.querySelectorAll<HTMLElement>("main a code")) {
      if (!code.checkVisibility()) continue;
      const id = spaced && code.childNodes.length === 1 && /^[^ ]*_[^ ]*$/.test(code.textContent!) ? code.firstChild : undefined;
      if (id) {
        id.textContent = id.textContent!.replace("_", "_ ");
        // On one line, as the id was: the comparison needs the two side by side.
        code.style.whiteSpace = "nowrap";
      }
      const node = [...code.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && /_/.test(n.textContent!) && / /.test(n.textContent!));
      if (!node) continue;
      code.scrollIntoView({ block: "center" });
      const rectOf = (at: number) => {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        const r = range.getClientRects()[0]!;
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      };
      const text = node.textContent!;
      return { text, underscore: rectOf(text.indexOf("_")), space: rectOf(text.indexOf(" ")) };
    }
    return undefined;
  }, spaced);
  if (!found) return "no link whose code holds an underscore and a space";
  const { underscore, space } = found;
  if (Math.abs(underscore.y - space.y) > 1) return `"${found.text}": its space and underscore are on different lines`;
  // From the text's middle to well below it, where an underline is drawn.
  const clip = { x: Math.min(underscore.x, space.x), y: underscore.y + underscore.height / 2, height: underscore.height };
  const png = await page.screenshot({
    clip: { ...clip, width: Math.max(underscore.x, space.x) + underscore.width - clip.x },
    scale: "css",
  });
  const [under, blank] = await page.evaluate(
    async ({ png, columns }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext("2d")!;
      context.drawImage(image, 0, 0);
      return columns.map((x) => {
        const runs: Array<[number, number]> = [];
        for (let y = 0; y < image.height; y++) {
          const [r, g, b] = context.getImageData(Math.round(x), y, 1, 1).data;
          // Ink: the link's colour or the text's, against the white page or the code's light grey.
          if (0.2126 * r! + 0.7152 * g! + 0.0722 * b! < 170) {
            const last = runs.at(-1);
            if (last && last[1] === y - 1) last[1] = y;
            else runs.push([y, y]);
          }
        }
        return runs;
      });
    },
    { png: png.toString("base64"), columns: [underscore.x + underscore.width / 2 - clip.x, space.x + space.width / 2 - clip.x] },
  );
  const apart = (run: [number, number], runs: Runs) => runs.every(([top, bottom]) => run[0] > bottom + 1 || run[1] < top - 1);
  if (!under!.length) return `"${found.text}": no underscore drawn`;
  if (!under!.some((run) => apart(run, blank!)))
    return `"${found.text}": the underscore (rows ${JSON.stringify(under)}) merges with the underline (rows ${JSON.stringify(blank)})`;
  return undefined;
}
