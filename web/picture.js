// A picture (PNG) of a part of the page, drawn in the browser: the element
// is written out as XHTML with the page's stylesheets into an SVG image,
// which is drawn on a canvas. Used for the boards a host posts to a chat
// room, each drawn by the game's own board module from its viewer's view.

const sheets = new Map();

/// The text of the stylesheet at `href`, fetched once.
function sheet(href) {
  if (!sheets.has(href)) {
    sheets.set(
      href,
      fetch(href).then((r) => (r.ok ? r.text() : '')).catch(() => ''),
    );
  }
  return sheets.get(href);
}

/// A PNG (as a data URL) of `node` as laid out now, styled by the sheets
/// at `hrefs`, on `background`.
export async function pictureOf(node, hrefs, background = '#ffffff') {
  const rect = node.getBoundingClientRect();
  const width = Math.max(1, Math.ceil(rect.width));
  const height = Math.max(1, Math.ceil(rect.height));
  // A sheet could only end the CDATA section with `]]>`, which no sheet of
  // ours holds; it is split all the same.
  const css = (await Promise.all(hrefs.map(sheet))).join('\n').replaceAll(']]>', ']] >');
  const xhtml = new XMLSerializer().serializeToString(node);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<foreignObject x="0" y="0" width="${width}" height="${height}">` +
    `<div xmlns="http://www.w3.org/1999/xhtml"><style><![CDATA[${css}]]></style>${xhtml}</div>` +
    '</foreignObject></svg>';
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(image, 0, 0);
  return canvas.toDataURL('image/png');
}

/// A PNG data URL's bytes as a Blob (to copy a picture to the clipboard).
export function blobOf(dataUrl) {
  const bytes = atob(dataUrl.slice(dataUrl.indexOf(',') + 1));
  return new Blob([Uint8Array.from(bytes, (c) => c.charCodeAt(0))], { type: 'image/png' });
}
