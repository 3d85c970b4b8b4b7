// Inkcard playground: Markdown on the left, cards (or a WeChat article) on the right.
// Plain script, no build step: it talks to the same service that served it, with the key
// the user typed (kept in this browser's localStorage, sent only as x-api-key).
"use strict";

const SIZES = [
  { id: "xhs", label: "小红书 3:4", width: 440, height: 586 },
  { id: "square", label: "Square", width: 500, height: 500 },
  { id: "poster", label: "Poster 9:16", width: 440, height: 782 },
  { id: "a4", label: "A4", width: 595, height: 842 },
  { id: "custom", label: "Custom", title: "Your own width and height" },
];
const FORMATS = [
  { id: "png", label: "PNG" },
  { id: "jpeg", label: "JPEG" },
  { id: "webp", label: "WebP" },
  { id: "pdf", label: "PDF", title: "One PDF of every card, with real text" },
];
const SCALES = [1, 2, 3, 4].map((n) => ({ id: String(n), label: `${n}×`, title: `${n} image pixels a CSS pixel` }));
const MEDIA_TYPES = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp", pdf: "application/pdf" };
const RETRY_CEILING_S = 30; // a Retry-After longer than this is shown, not waited for
const SPLITS = [
  { id: "noSplit", label: "One card", title: "One card, as tall as the content needs" },
  { id: "autoSplit", label: "Auto pages", title: "Cards of exactly the chosen size; the text flows across them" },
  { id: "hrSplit", label: "At ---", title: "One card per part between --- lines" },
];
const SAMPLE = `# 把时间花在刀刃上

高效不是做更多的事，而是**做对的事**。

## 三个小习惯

1. 早上写下今天**最重要的三件事**
2. 25 分钟专注，5 分钟休息
3. 睡前花 5 分钟复盘

> 专注是一种选择，也是一种能力。

---

## Write, see, share

Type Markdown on the left and the cards appear on the right. Pick a *theme*, a size and a split mode, then download them all as a ZIP.
`;
const DEBOUNCE_MS = 450;
const STORE = { key: "inkcard.apiKey", markdown: "inkcard.markdown", settings: "inkcard.settings" };
const ERROR_TITLES = {
  missing_api_key: "Add your API key",
  invalid_api_key: "This API key was not accepted",
  insufficient_credits: "Not enough credits",
  payload_too_large: "Too much Markdown",
  empty_markdown: "The Markdown is empty",
  rate_limited: "Too many renders at once",
  overloaded: "The service is busy",
  busy: "The service is busy",
  timeout: "This took too long",
};
const STATUS_TITLES = { 400: "The request was refused", 401: "This API key was not accepted", 402: "Not enough credits" };

const $ = (id) => document.getElementById(id);
const state = {
  themes: [], articleThemes: [], theme: "apple-notes", mode: null, size: "xhs",
  split: "noSplit", overflow: false, articleTheme: null, tab: "cards", images: [],
  format: "png", scale: "2", mdx: false, width: 440, height: 586,
  codeThemes: [], codeTheme: "", indent: false, justify: false, css: "",
};
const SAVED = ["theme", "mode", "size", "split", "overflow", "articleTheme", "format", "scale", "mdx", "width", "height",
  "codeTheme", "indent", "justify", "css"];
const cache = new Map(); // request text → promise of its result: an identical request is sent once
let latest = 0;
let timer = 0;

// ---- storage ---------------------------------------------------------------------------

function load(name, fallback) {
  try { return localStorage.getItem(name) ?? fallback; } catch { return fallback; }
}
function save(name, value) {
  try { localStorage.setItem(name, value); } catch { /* private mode: nothing is kept */ }
}
function saveSettings() {
  save(STORE.settings, JSON.stringify(Object.fromEntries(SAVED.map((name) => [name, state[name]]))));
}
function apiKey() { return $("api-key").value.trim(); }

// ---- requests ----------------------------------------------------------------------------

// The card size asked for: a preset's, or the custom width and height.
function cardSize() {
  const size = SIZES.find((s) => s.id === state.size) || SIZES[0];
  if (size.id !== "custom") return size;
  return { width: Number(state.width) || 440, height: Number(state.height) || 586 };
}
function cardRequest() {
  const size = cardSize();
  const body = { markdown: $("markdown").value, theme: state.theme };
  if (state.mode) body.themeMode = state.mode;
  body.width = size.width;
  body.height = size.height;
  body.splitMode = state.split;
  if (state.overflow) body.overHiddenMode = true;
  if (state.mdx) body.mdxMode = true;
  body.scale = Number(state.scale);
  body.format = state.format;
  return { path: "/api/generate", body };
}
// The article's own look goes only when asked for: a plain conversion's request stays the same.
function articleRequest() {
  const body = { markdown: $("markdown").value, theme: state.articleTheme };
  if (state.codeTheme) body.codeTheme = state.codeTheme;
  if (state.indent) body.indent = true;
  if (state.justify) body.justify = true;
  if (state.css.trim()) body.css = state.css;
  return { path: "/api/platform/convert-and-draft", body };
}
function requestId(request) { return `${apiKey()}\n${request.path}\n${JSON.stringify(request.body)}`; }

class ApiFailure extends Error {
  constructor(status, label, message) { super(message); this.status = status; this.label = label; }
}

// ``onWait(seconds)`` is told when a 429 is retried, so the status line can say so.
async function call(request, onWait) {
  const id = requestId(request);
  if (!cache.has(id)) {
    const pending = send(request.path, JSON.stringify(request.body), {}, onWait)
      .catch((err) => { cache.delete(id); throw err; });
    cache.set(id, pending);
  }
  return cache.get(id);
}

// One POST; a 429 is sent once more after its Retry-After (when that is short), then given up.
async function send(path, text, headers = {}, onWait = () => {}, retried = false) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "x-api-key": apiKey(), "Content-Type": "application/json", ...headers },
      body: text,
    });
  } catch {
    throw new ApiFailure(0, "network", "The service could not be reached. Is it still running?");
  }
  const wait = Number(response.headers.get("Retry-After"));
  if (response.status === 429 && !retried && wait >= 0 && wait <= RETRY_CEILING_S) {
    onWait(wait);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    return send(path, text, headers, onWait, true);
  }
  let data = null;
  try { data = await response.json(); } catch { /* not JSON: described below */ }
  if (!response.ok) {
    const label = (data && data.error) || `http_${response.status}`;
    const message = (data && data.message) || `The service answered ${response.status}.`;
    throw new ApiFailure(response.status, label, message);
  }
  return data;
}

function showError(box, err) {
  if (!err) { box.hidden = true; box.replaceChildren(); return; }
  const title = ERROR_TITLES[err.label] || STATUS_TITLES[err.status] || "Something went wrong";
  const head = document.createElement("strong");
  head.textContent = title;
  const text = document.createElement("p");
  text.textContent = err.message;
  const parts = [head, text];
  if (err.status === 401) {
    const tip = document.createElement("p");
    tip.className = "tip";
    tip.textContent = "Paste a key into the API key box above (create one with: inkcard keys create).";
    parts.push(tip);
  } else if (err.status === 402) {
    const tip = document.createElement("p");
    tip.className = "tip";
    tip.textContent = "Ask the operator for credits (inkcard credits grant <key prefix> <credits>).";
    parts.push(tip);
  }
  const code = document.createElement("code");
  code.textContent = err.status ? `${err.status} ${err.label}` : err.label;
  parts.push(code);
  box.replaceChildren(...parts);
  box.hidden = false;
}

// ---- cards -------------------------------------------------------------------------------

function scheduleRender() {
  clearTimeout(timer);
  timer = setTimeout(renderCards, DEBOUNCE_MS);
}

async function renderCards() {
  clearTimeout(timer);
  const ticket = ++latest;
  const errorBox = $("cards-error");
  if (!apiKey()) {
    showError(errorBox, new ApiFailure(0, "missing_api_key", "The playground calls the API with your own key; it is kept in this browser only."));
    $("status").textContent = "";
    return;
  }
  $("status").textContent = "Rendering…";
  $("cards").classList.add("busy");
  const onWait = (seconds) => {
    if (ticket === latest) $("status").textContent = `Too many renders at once: retrying in ${seconds} s…`;
  };
  try {
    const result = await call(cardRequest(), onWait);
    if (ticket !== latest) return;
    showError(errorBox, null);
    $("cards").classList.remove("stale");
    showCards(result.images);
  } catch (err) {
    if (ticket !== latest) return;
    showError(errorBox, err);
    $("status").textContent = state.images.length ? "Showing the last cards that worked" : "";
    $("cards").classList.add("stale");
  } finally {
    if (ticket === latest) $("cards").classList.remove("busy");
  }
}

function extension(image) { return image.fileName.split(".").pop(); }

// A card as an image with the text it shows as its alt text; a PDF (every card in one
// document) as a link to open it.
function cardView(image, size) {
  if (extension(image) === "pdf") {
    const link = document.createElement("a");
    link.className = "pdf";
    link.href = image.url;
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = "Open the PDF";
    link.title = image.altText;
    return link;
  }
  const img = document.createElement("img");
  img.src = image.url;
  img.alt = image.altText;
  img.style.width = `${size.width}px`;
  return img;
}

function showCards(images) {
  state.images = images;
  const size = cardSize();
  const figures = images.map((image, i) => {
    const figure = document.createElement("figure");
    figure.className = "card";
    const caption = document.createElement("figcaption");
    const label = document.createElement("span");
    label.textContent = images.length > 1 ? `${i + 1} / ${images.length}` : "1 card";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "ghost small";
    button.textContent = `Download ${extension(image).toUpperCase()}`;
    button.setAttribute("aria-label", `${button.textContent}, card ${i + 1}`);
    button.addEventListener("click", () => downloadOne(image, i));
    caption.append(label, button);
    figure.append(cardView(image, size), caption);
    return figure;
  });
  $("cards").replaceChildren(...figures);
  const what = extension(images[0] || { fileName: "png" }) === "pdf" ? "PDF" : images.length === 1 ? "card" : "cards";
  $("status").textContent = `${images.length} ${what} · ${size.width} × ${size.height}`;
  $("download-zip").disabled = images.length === 0;
}

async function fetchFile(image) {
  // The stored URL may name another host than the one this page came from (a CDN, or
  // 127.0.0.1 vs localhost); local storage also serves the same file under /files/.
  for (const url of [image.url, `/files/${image.fileName}`]) {
    try {
      const response = await fetch(url);
      if (response.ok) return new Uint8Array(await response.arrayBuffer());
    } catch { /* try the next address */ }
  }
  throw new ApiFailure(0, "download_failed", `Could not download ${image.fileName}.`);
}

function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function cardFileName(image, i) { return `inkcard-${state.theme}-${i + 1}.${extension(image)}`; }

async function downloadOne(image, i) {
  try {
    const type = MEDIA_TYPES[extension(image)] || "application/octet-stream";
    saveBlob(new Blob([await fetchFile(image)], { type }), cardFileName(image, i));
  } catch (err) { showError($("cards-error"), err); }
}

async function downloadZip() {
  const button = $("download-zip");
  button.disabled = true;
  try {
    const files = [];
    for (const [i, image] of state.images.entries()) {
      files.push({ name: cardFileName(image, i), data: await fetchFile(image) });
    }
    saveBlob(zipStore(files), `inkcard-${state.theme}.zip`);
  } catch (err) {
    showError($("cards-error"), err);
  } finally {
    button.disabled = state.images.length === 0;
  }
}

// ---- article -----------------------------------------------------------------------------

async function convertArticle() {
  const errorBox = $("article-error");
  if (!apiKey()) {
    showError(errorBox, new ApiFailure(0, "missing_api_key", "The playground calls the API with your own key; it is kept in this browser only."));
    return;
  }
  $("article-status").textContent = "Converting…";
  $("convert").disabled = true;
  const onWait = (seconds) => { $("article-status").textContent = `Too many calls at once: retrying in ${seconds} s…`; };
  try {
    const result = await call(articleRequest(), onWait);
    showError(errorBox, null);
    showWarnings($("article-warnings"), result.warnings);
    showArticle(result.html);
    $("article-status").textContent = `Converted with ${state.articleTheme} · ${result.cost} credit${result.cost === 1 ? "" : "s"} (a repeat of the same text is not sent again)`;
  } catch (err) {
    showError(errorBox, err);
    showWarnings($("article-warnings"), []);
    $("article-status").textContent = "";
  } finally {
    $("convert").disabled = false;
  }
}

// What the service changed or the platform would refuse (an article's or image post's
// `warnings`): one line each, its code and its message; hidden when there are none.
function showWarnings(list, warnings) {
  list.replaceChildren(...(warnings || []).map(({ code, message }) => {
    const item = document.createElement("li");
    const label = document.createElement("code");
    label.textContent = code;
    item.append(label, " ", message);
    return item;
  }));
  list.hidden = list.childElementCount === 0;
}

function showArticle(html) {
  const frame = $("article-frame");
  frame.onload = () => {
    const doc = frame.contentDocument;
    if (!doc) return;
    // As tall as the article, so the pane scrolls rather than the frame.
    const fit = () => { frame.style.height = `${doc.documentElement.scrollHeight}px`; };
    fit();
    doc.defaultView.requestAnimationFrame(fit);
    $("copy-rich").disabled = false;
  };
  frame.srcdoc = html; // sandboxed: no scripts run, and the server sanitises the HTML anyway
}

async function copyRichText() {
  const doc = $("article-frame").contentDocument;
  if (!doc || !doc.body) return;
  const html = doc.body.innerHTML;
  try {
    await navigator.clipboard.write([new ClipboardItem({
      "text/html": new Blob([html], { type: "text/html" }),
      "text/plain": new Blob([doc.body.innerText], { type: "text/plain" }),
    })]);
  } catch {
    // Without the async clipboard (plain http on another host): copy the frame's selection.
    const range = doc.createRange();
    range.selectNodeContents(doc.body);
    const selection = doc.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    doc.execCommand("copy");
    selection.removeAllRanges();
  }
  toast("Copied. Paste it into the WeChat editor.");
}

// ---- curl --------------------------------------------------------------------------------

function shellQuote(text) { return `'${text.replaceAll("'", "'\\''")}'`; }

function curlCommand(request) {
  const key = apiKey() || "$INKCARD_KEY";
  return [
    `curl -s ${shellQuote(location.origin + request.path)}`,
    `  -H ${shellQuote(`x-api-key: ${key}`)}`,
    "  -H 'Content-Type: application/json'",
    `  -d ${shellQuote(JSON.stringify(request.body))}`,
  ].join(" \\\n");
}

function showCurl(request) {
  $("curl-text").textContent = curlCommand(request);
  $("curl-copied").textContent = "";
  $("curl-dialog").showModal();
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

// ---- pickers -----------------------------------------------------------------------------

function segmented(container, options, current, onPick) {
  const buttons = options.map((option) => {
    const button = document.createElement("button");
    button.type = "button";
    button.setAttribute("role", "radio");
    button.setAttribute("aria-checked", String(option.id === current));
    button.dataset.value = option.id;
    button.textContent = option.label;
    if (option.title) button.title = option.title;
    button.addEventListener("click", () => {
      for (const other of container.children) other.setAttribute("aria-checked", String(other === button));
      onPick(option.id);
    });
    return button;
  });
  container.replaceChildren(...buttons);
}

function currentTheme() { return state.themes.find((t) => t.id === state.theme) || state.themes[0]; }

function modeName(mode) { return mode.replace(/-mode$/, "").replaceAll("-", " "); }

function showTheme() {
  const theme = currentTheme();
  if (!theme) return;
  if (!theme.modes.includes(state.mode)) state.mode = theme.modes[0] || null;
  $("theme-label").textContent = theme.label;
  $("theme-button").title = theme.description;
  $("theme-thumb").src = (state.mode && theme.previews[state.mode]) || theme.preview;
  const chips = theme.modes.map((mode) => {
    const chip = document.createElement("button");
    chip.type = "button";
    chip.className = "mode";
    chip.setAttribute("role", "radio");
    chip.setAttribute("aria-checked", String(mode === state.mode));
    chip.dataset.mode = mode;
    const swatch = document.createElement("img");
    swatch.src = theme.previews[mode];
    swatch.alt = "";
    const label = document.createElement("span");
    label.textContent = modeName(mode);
    chip.append(swatch, label);
    chip.addEventListener("click", () => {
      state.mode = mode;
      showTheme();
      saveSettings();
      renderCards();
    });
    return chip;
  });
  $("modes").replaceChildren(...chips);
  for (const tile of $("theme-grid").children) {
    tile.setAttribute("aria-pressed", String(tile.dataset.theme === theme.id));
  }
}

function buildThemeGrid() {
  const tiles = state.themes.map((theme) => {
    const tile = document.createElement("button");
    tile.type = "button";
    tile.className = "theme-tile";
    tile.dataset.theme = theme.id;
    const img = document.createElement("img");
    img.src = theme.preview;
    img.alt = "";
    img.loading = "lazy";
    img.width = 220;
    img.height = 293;
    const name = document.createElement("strong");
    name.textContent = theme.label;
    const id = document.createElement("code");
    id.textContent = theme.id;
    const text = document.createElement("small");
    text.textContent = theme.description;
    const count = document.createElement("span");
    count.className = "mode-count";
    count.textContent = theme.modes.length > 1 ? `${theme.modes.length} modes` : "";
    tile.append(img, name, id, text, count);
    tile.addEventListener("click", () => {
      state.theme = theme.id;
      state.mode = null;
      $("theme-dialog").close();
      showTheme();
      saveSettings();
      renderCards();
    });
    return tile;
  });
  $("theme-grid").replaceChildren(...tiles);
}

async function loadThemes() {
  try {
    const response = await fetch("/api/themes");
    const data = await response.json();
    state.themes = data.cards;
    state.articleThemes = data.articles;
    state.codeThemes = data.codeThemes || [];
  } catch {
    showError($("cards-error"), new ApiFailure(0, "network", "The theme list could not be loaded. Is the service running?"));
    return;
  }
  if (!state.themes.some((t) => t.id === state.theme)) state.theme = state.themes[0].id;
  if (!state.articleThemes.includes(state.articleTheme)) state.articleTheme = state.articleThemes[0];
  buildThemeGrid();
  showTheme();
  segmented($("article-themes"), state.articleThemes.map((id) => ({ id, label: id })), state.articleTheme, pickArticleTheme);
  if (!state.codeThemes.includes(state.codeTheme)) state.codeTheme = "";
  $("code-theme").append(...state.codeThemes.map((id) => new Option(id, id)));
  $("code-theme").value = state.codeTheme;
}

// A changed look converts nothing either: as for a theme, Convert is the way.
function pickArticleLook(name, value) {
  state[name] = value;
  saveSettings();
  if (cache.has(requestId(articleRequest()))) {
    convertArticle();
    return;
  }
  $("article-status").textContent = "Look changed: press Convert to see it ({{html-price}}).";
}

// Choosing a theme converts nothing (a conversion costs a credit): a conversion of this text
// in this theme already made in this page shows again, free; otherwise Convert is the way.
async function pickArticleTheme(id) {
  state.articleTheme = id;
  saveSettings();
  if (cache.has(requestId(articleRequest()))) {
    convertArticle();
    return;
  }
  $("article-status").textContent = `${id} chosen: press Convert to see it ({{html-price}}).`;
}

// ---- drafts ------------------------------------------------------------------------------

// A draft in the account's draft box. The AppID and AppSecret go with this one request as
// headers and are never kept: not in localStorage, not in the page's request cache.
async function createDraft() {
  const errorBox = $("article-error");
  const appid = $("draft-appid").value.trim();
  const secret = $("draft-secret").value.trim();
  if (!apiKey() || !appid || !secret) {
    const what = apiKey() ? "Type the account's AppID and AppSecret." : "The playground calls the API with your own key.";
    showError(errorBox, new ApiFailure(0, apiKey() ? "missing_platform_credentials" : "missing_api_key", what));
    return;
  }
  const request = articleRequest();
  $("draft").disabled = true;
  $("article-status").textContent = "Creating the draft…";
  const onWait = (seconds) => { $("article-status").textContent = `Too many calls at once: retrying in ${seconds} s…`; };
  try {
    const headers = { "Platform-Appid": appid, "Platform-App-Secret": secret };
    const result = await send(request.path, JSON.stringify(request.body), headers, onWait);
    showError(errorBox, null);
    showWarnings($("article-warnings"), result.warnings);
    const { media_id: mediaId, cost } = result.data;
    $("article-status").textContent = `Draft created in the account's draft box: ${mediaId} · ${cost} credits`;
  } catch (err) {
    showError(errorBox, err);
    $("article-status").textContent = "";
  } finally {
    $("draft").disabled = false;
  }
}

// ---- page --------------------------------------------------------------------------------

let toastTimer = 0;
function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 2600);
}

function selectTab(name) {
  state.tab = name;
  for (const tab of ["cards", "article"]) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(`${tab}-panel`).hidden = tab !== name;
  }
}

function countCharacters() {
  const n = $("markdown").value.length;
  // The server's Markdown limit, filled into the page when it is served.
  const max = Number($("char-count").dataset.max).toLocaleString("en-US");
  $("char-count").textContent = `${n.toLocaleString()} / ${max} characters`;
}

function restore() {
  $("api-key").value = load(STORE.key, "");
  $("markdown").value = load(STORE.markdown, SAMPLE);
  try {
    const saved = JSON.parse(load(STORE.settings, "{}"));
    for (const name of SAVED) {
      if (saved[name] !== undefined) state[name] = saved[name];
    }
  } catch { /* a damaged entry: start from the defaults */ }
  $("overflow").checked = Boolean(state.overflow);
  $("mdx").checked = Boolean(state.mdx);
  $("custom-width").value = state.width;
  $("custom-height").value = state.height;
  $("custom-size").hidden = state.size !== "custom";
  $("article-indent").checked = Boolean(state.indent);
  $("article-justify").checked = Boolean(state.justify);
  $("article-css").value = state.css || "";
}

function wire() {
  $("markdown").addEventListener("input", () => {
    save(STORE.markdown, $("markdown").value);
    countCharacters();
    scheduleRender();
  });
  $("api-key").addEventListener("input", () => {
    save(STORE.key, apiKey());
    scheduleRender();
  });
  $("key-form").addEventListener("submit", (event) => event.preventDefault());
  $("key-show").addEventListener("click", () => {
    const input = $("api-key");
    const hidden = input.type === "password";
    input.type = hidden ? "text" : "password";
    $("key-show").textContent = hidden ? "Hide" : "Show";
  });
  $("overflow").addEventListener("change", () => {
    state.overflow = $("overflow").checked;
    saveSettings();
    renderCards();
  });
  segmented($("sizes"), SIZES.map((s) => ({ title: `${s.width} × ${s.height} px`, ...s })), state.size, (id) => {
    state.size = id;
    $("custom-size").hidden = id !== "custom";
    saveSettings();
    renderCards();
  });
  for (const [input, name] of [[$("custom-width"), "width"], [$("custom-height"), "height"]]) {
    input.addEventListener("input", () => {
      state[name] = input.value;
      saveSettings();
      scheduleRender();
    });
  }
  segmented($("formats"), FORMATS, state.format, (id) => {
    state.format = id;
    saveSettings();
    renderCards();
  });
  segmented($("scales"), SCALES, state.scale, (id) => {
    state.scale = id;
    saveSettings();
    renderCards();
  });
  $("mdx").addEventListener("change", () => {
    state.mdx = $("mdx").checked;
    saveSettings();
    renderCards();
  });
  segmented($("splits"), SPLITS, state.split, (id) => {
    state.split = id;
    saveSettings();
    renderCards();
  });
  $("theme-button").addEventListener("click", () => $("theme-dialog").showModal());
  for (const dialog of document.querySelectorAll("dialog")) {
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog || event.target.closest("[data-close]")) dialog.close();
    });
  }
  $("download-zip").addEventListener("click", downloadZip);
  $("cards-curl").addEventListener("click", () => showCurl(cardRequest()));
  $("article-curl").addEventListener("click", () => showCurl(articleRequest()));
  $("curl-copy").addEventListener("click", async () => {
    const done = await copyText($("curl-text").textContent);
    $("curl-copied").textContent = done ? "Copied." : "Select the text and copy it.";
  });
  $("tab-cards").addEventListener("click", () => selectTab("cards"));
  $("tab-article").addEventListener("click", () => selectTab("article"));
  $("convert").addEventListener("click", convertArticle);
  $("draft").addEventListener("click", createDraft);
  for (const [container, selector, attribute] of [
    [$("modes"), ".mode", "aria-checked"], [$("sizes"), "button", "aria-checked"],
    [$("splits"), "button", "aria-checked"], [$("formats"), "button", "aria-checked"],
    [$("scales"), "button", "aria-checked"], [$("article-themes"), "button", "aria-checked"],
    [$("tabs"), "[role=tab]", "aria-selected"],
  ]) roving(container, selector, attribute);
  $("copy-rich").addEventListener("click", copyRichText);
  $("code-theme").addEventListener("change", () => pickArticleLook("codeTheme", $("code-theme").value));
  $("article-indent").addEventListener("change", () => pickArticleLook("indent", $("article-indent").checked));
  $("article-justify").addEventListener("change", () => pickArticleLook("justify", $("article-justify").checked));
  $("article-css").addEventListener("input", () => pickArticleLook("css", $("article-css").value));
}

const ARTICLE_PLACEHOLDER = `<body style="margin:0;height:380px;display:flex;align-items:center;
justify-content:center;font:14px/1.5 system-ui,sans-serif;color:#8a847c;text-align:center;padding:0 32px">
Press Convert to see your Markdown as a WeChat article at phone width.</body>`;

async function start() {
  $("article-frame").srcdoc = ARTICLE_PLACEHOLDER;
  restore();
  wire();
  countCharacters();
  await loadThemes();
  renderCards();
}

start();
