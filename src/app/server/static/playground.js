// Inkcard playground: Markdown on the left, cards (or a WeChat article) on the right.
// Plain script, no build step: it talks to the same service that served it, with the key
// the user typed (kept in this browser's localStorage, sent only as x-api-key).
"use strict";

const SIZES = [
  { id: "xhs", label: "小红书 3:4", width: 440, height: 586 },
  { id: "square", label: "Square", width: 500, height: 500 },
  { id: "poster", label: "Poster 9:16", width: 440, height: 782 },
  { id: "a4", label: "A4", width: 595, height: 842 },
];
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
};
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
  const { theme, mode, size, split, overflow, articleTheme } = state;
  save(STORE.settings, JSON.stringify({ theme, mode, size, split, overflow, articleTheme }));
}
function apiKey() { return $("api-key").value.trim(); }

// ---- requests ----------------------------------------------------------------------------

function cardRequest() {
  const size = SIZES.find((s) => s.id === state.size) || SIZES[0];
  const body = { markdown: $("markdown").value, theme: state.theme };
  if (state.mode) body.themeMode = state.mode;
  body.width = size.width;
  body.height = size.height;
  body.splitMode = state.split;
  if (state.overflow) body.overHiddenMode = true;
  return { path: "/api/generate", body };
}
function articleRequest() {
  return { path: "/api/platform/convert-and-draft", body: { markdown: $("markdown").value, theme: state.articleTheme } };
}

class ApiFailure extends Error {
  constructor(status, label, message) { super(message); this.status = status; this.label = label; }
}

async function call(request) {
  const text = JSON.stringify(request.body);
  const id = `${apiKey()}\n${request.path}\n${text}`;
  if (!cache.has(id)) {
    const pending = send(request.path, text).catch((err) => { cache.delete(id); throw err; });
    cache.set(id, pending);
  }
  return cache.get(id);
}

async function send(path, text) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "x-api-key": apiKey(), "Content-Type": "application/json" },
      body: text,
    });
  } catch {
    throw new ApiFailure(0, "network", "The service could not be reached. Is it still running?");
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
  try {
    const result = await call(cardRequest());
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

function showCards(images) {
  state.images = images;
  const size = SIZES.find((s) => s.id === state.size) || SIZES[0];
  const figures = images.map((image, i) => {
    const figure = document.createElement("figure");
    figure.className = "card";
    const img = document.createElement("img");
    img.src = image.url;
    img.alt = `Card ${i + 1} of ${images.length}`;
    img.style.width = `${size.width}px`;
    const caption = document.createElement("figcaption");
    const label = document.createElement("span");
    label.textContent = images.length > 1 ? `${i + 1} / ${images.length}` : "1 card";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "ghost small";
    button.textContent = "Download PNG";
    button.addEventListener("click", () => downloadOne(image, i));
    caption.append(label, button);
    figure.append(img, caption);
    return figure;
  });
  $("cards").replaceChildren(...figures);
  $("status").textContent = `${images.length} ${images.length === 1 ? "card" : "cards"} · ${size.width} × ${size.height}`;
  $("download-zip").disabled = images.length === 0;
}

async function fetchPng(image) {
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

function cardFileName(i) { return `inkcard-${state.theme}-${i + 1}.png`; }

async function downloadOne(image, i) {
  try {
    saveBlob(new Blob([await fetchPng(image)], { type: "image/png" }), cardFileName(i));
  } catch (err) { showError($("cards-error"), err); }
}

async function downloadZip() {
  const button = $("download-zip");
  button.disabled = true;
  try {
    const files = [];
    for (const [i, image] of state.images.entries()) {
      files.push({ name: cardFileName(i), data: await fetchPng(image) });
    }
    saveBlob(zipStore(files), `inkcard-${state.theme}.zip`);
  } catch (err) {
    showError($("cards-error"), err);
  } finally {
    button.disabled = state.images.length === 0;
  }
}

// ---- a store-only ZIP writer (PNGs are compressed already) --------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function zipStore(files) {
  const encoder = new TextEncoder();
  const parts = [];
  const central = [];
  let offset = 0;
  for (const file of files) {
    const name = encoder.encode(file.name);
    const crc = crc32(file.data);
    const size = file.data.length;
    // Local header: version 2.0, UTF-8 names (flag bit 11), stored (method 0), no date.
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(6, 0x0800, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, size, true);
    local.setUint32(22, size, true);
    local.setUint16(26, name.length, true);
    const entry = new DataView(new ArrayBuffer(46));
    entry.setUint32(0, 0x02014b50, true);
    entry.setUint16(4, 20, true);
    entry.setUint16(6, 20, true);
    entry.setUint16(8, 0x0800, true);
    entry.setUint32(16, crc, true);
    entry.setUint32(20, size, true);
    entry.setUint32(24, size, true);
    entry.setUint16(28, name.length, true);
    entry.setUint32(42, offset, true);
    parts.push(local, name, file.data);
    central.push(entry, name);
    offset += 30 + name.length + size;
  }
  const centralSize = central.reduce((sum, part) => sum + part.byteLength, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  return new Blob([...parts, ...central, end], { type: "application/zip" });
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
  try {
    const result = await call(articleRequest());
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
  } catch {
    showError($("cards-error"), new ApiFailure(0, "network", "The theme list could not be loaded. Is the service running?"));
    return;
  }
  if (!state.themes.some((t) => t.id === state.theme)) state.theme = state.themes[0].id;
  if (!state.articleThemes.includes(state.articleTheme)) state.articleTheme = state.articleThemes[0];
  buildThemeGrid();
  showTheme();
  segmented($("article-themes"), state.articleThemes.map((id) => ({ id, label: id })), state.articleTheme, (id) => {
    state.articleTheme = id;
    saveSettings();
    convertArticle();
  });
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
    for (const name of ["theme", "mode", "size", "split", "overflow", "articleTheme"]) {
      if (saved[name] !== undefined) state[name] = saved[name];
    }
  } catch { /* a damaged entry: start from the defaults */ }
  $("overflow").checked = Boolean(state.overflow);
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
  segmented($("sizes"), SIZES.map((s) => ({ ...s, title: `${s.width} × ${s.height} px` })), state.size, (id) => {
    state.size = id;
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
  $("copy-rich").addEventListener("click", copyRichText);
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
