// The inbox UI: hash-routed views over the inbox's JSON API, refreshed from its SSE stream.
// Every value from the API goes into the page as text (never as HTML); an email's HTML body is
// shown only in a sandboxed iframe whose document carries a strict CSP.
"use strict";

const PER_PAGE = 50;
const state = { tab: "email", id: null, page: 1, q: "", channel: "", part: "html", remote: false, open: null };
// Messages a framed email managed to post (none should: the frame runs no script).
window.inboxFrameMessages = [];
window.addEventListener("message", (e) => window.inboxFrameMessages.push(String(e.data)));

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
const badge = (s) => h("span", { class: "badge " + String(s || "").replace(/[^a-z_]/gi, "") }, s || "");
const when = (t) => {
  const d = new Date(t);
  return isNaN(d) ? (t || "") : d.toLocaleString();
};
const short = (t) => {
  const d = new Date(t);
  return isNaN(d) ? "" : d.toLocaleTimeString();
};

async function api(path, options) {
  const r = await fetch(path, options);
  if (r.status === 204) return null;
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}
const qs = (o) => new URLSearchParams(Object.entries(o).filter(([, v]) => v !== "" && v !== null && v !== undefined)).toString();

function route() {
  const [tab, id] = location.hash.replace(/^#/, "").split("/");
  const next = tab || "email";
  if (next !== state.tab) { state.page = 1; state.q = ""; state.open = null; }
  state.tab = next;
  state.id = id ? decodeURIComponent(id) : null;
  for (const a of document.querySelectorAll("#tabs a")) a.classList.toggle("active", a.dataset.tab === state.tab);
  render();
}

async function summary() {
  try {
    const s = await api("/api/summary");
    for (const k of ["emails", "messages", "webhooks", "realtime", "calls"]) {
      document.getElementById("count-" + k).textContent = s.counts[k];
    }
  } catch (_) { /* the next change retries */ }
}

function pager(data, onPage) {
  const pages = Math.max(1, Math.ceil(data.total / data.per_page));
  return h("div", { class: "pager" },
    h("span", {}, `${data.total} in all · page ${data.page} of ${pages}`),
    h("span", {},
      h("button", { type: "button", class: "first", disabled: data.page <= 1, onclick: () => onPage(1) }, "« Newest"), " ",
      h("button", { type: "button", class: "newer", disabled: data.page <= 1, onclick: () => onPage(data.page - 1) }, "‹ Newer"), " ",
      h("button", { type: "button", class: "older", disabled: data.page >= pages, onclick: () => onPage(data.page + 1) }, "Older ›"), " ",
      h("button", { type: "button", class: "last", disabled: data.page >= pages, onclick: () => onPage(pages) }, "Oldest »")));
}

function searchBar(placeholder, extra) {
  const input = h("input", { type: "search", id: "search", placeholder, value: state.q });
  let timer = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => { state.q = input.value; state.page = 1; render(); }, 200);
  });
  return h("div", { class: "bar" }, input, extra || null);
}

function keepFocus(fn) {
  const focused = document.activeElement && document.activeElement.id === "search";
  const pos = focused ? document.activeElement.selectionStart : 0;
  fn();
  if (focused) {
    const input = document.getElementById("search");
    if (input) { input.focus(); input.setSelectionRange(pos, pos); }
  }
}

// ---- email ----

async function renderEmail(main) {
  const data = await api("/api/emails?" + qs({ q: state.q, page: state.page, per_page: PER_PAGE }));
  const list = h("ul", { class: "list", id: "email-list" });
  for (const m of data.items) {
    list.append(h("li", {
      "data-id": m.id, class: m.id === state.id ? "selected" : "",
      onclick: () => { location.hash = "#email/" + encodeURIComponent(m.id); },
    },
      h("span", { class: "who" }, m.from),
      h("span", { class: "when" }, short(m.created_at)),
      h("span", { class: "subject" }, m.subject || "(no subject)", " ", badge(m.status), m.source === "smtp" ? [" ", badge("smtp")] : null,
        m.attachments ? [" ", h("span", { class: "note" }, `${m.attachments} attachment${m.attachments === 1 ? "" : "s"}`)] : null),
      h("span", { class: "snippet" }, "To " + m.to.join(", ") + (m.snippet ? " — " + m.snippet : ""))));
  }
  if (!data.items.length) list.append(h("li", { class: "empty" }, state.q ? "Nothing matches." : "No email yet. Send one through the API or the SMTP relay."));
  const left = h("section", { class: "pane" },
    searchBar("Search from, to, subject, text…"), list,
    pager(data, (p) => { state.page = p; render(); }));
  const right = h("section", { class: "pane detail", id: "email-detail" });
  keepFocus(() => main.replaceChildren(h("div", { class: "split" }, left, right)));
  if (state.id) await emailDetail(right);
  else right.append(h("div", { class: "empty" }, "Pick an email on the left."));
}

async function emailDetail(pane) {
  let m;
  try { m = await api("/api/emails/" + encodeURIComponent(state.id)); } catch (e) {
    pane.replaceChildren(h("div", { class: "empty" }, "This email is gone (" + e.message + ")."));
    return;
  }
  const meta = h("dl", { class: "meta" },
    h("dt", {}, "From"), h("dd", {}, m.from),
    h("dt", {}, "To"), h("dd", {}, m.to.join(", ")),
    m.cc.length ? [h("dt", {}, "Cc"), h("dd", {}, m.cc.join(", "))] : null,
    m.bcc.length ? [h("dt", {}, "Bcc"), h("dd", {}, m.bcc.join(", "))] : null,
    h("dt", {}, "Status"), h("dd", {}, badge(m.status), " via ", m.source === "smtp" ? "SMTP relay" : "REST API"),
    h("dt", {}, "Received"), h("dd", {}, when(m.created_at)),
    m.tags.length ? [h("dt", {}, "Tags"), h("dd", {}, m.tags.join(", "))] : null,
    h("dt", {}, "Id"), h("dd", { class: "mono" }, m.id));
  const parts = [["html", "HTML"], ["text", "Text"], ["headers", "Headers"], ["raw", "Raw"], ["attachments", `Attachments (${m.attachments.length})`], ["events", "Events"]];
  const body = h("div", { id: "email-part" });
  const tabs = h("div", { class: "subtabs" }, parts.map(([k, label]) =>
    h("button", { type: "button", class: k === state.part ? "active" : "", "data-part": k, onclick: () => { state.part = k; render(); } }, label)));
  if (state.part === "html") {
    const toggle = h("input", { type: "checkbox", id: "remote-images", checked: state.remote, onchange: (e) => { state.remote = e.target.checked; render(); } });
    tabs.append(h("label", { class: "right" }, toggle, " load remote images"));
  }
  pane.replaceChildren(h("div", { class: "card" }, h("h2", { id: "email-subject" }, m.subject || "(no subject)"), meta, tabs, body));
  if (state.part === "html") {
    if (m.html) {
      // sandbox="" : no scripts, no forms, no same-origin access; the document's CSP blocks loads.
      body.append(h("iframe", { class: "mail", id: "email-frame", sandbox: "", referrerpolicy: "no-referrer", title: "HTML body",
        src: `/api/emails/${encodeURIComponent(m.id)}/html${state.remote ? "?remote=1" : ""}` }));
    } else body.append(h("div", { class: "empty" }, "This email has no HTML body."));
  } else if (state.part === "text") {
    body.append(h("div", { class: "body" }, h("pre", { id: "email-text" }, m.text || "(no text body)")));
  } else if (state.part === "headers") {
    body.append(h("table", {}, h("tbody", {}, m.headers.map((x) => h("tr", {}, h("th", {}, x.name), h("td", { class: "wrap mono" }, x.value))))));
  } else if (state.part === "raw") {
    const pre = h("pre", { id: "email-raw", class: "body" }, "loading…");
    body.append(h("div", { class: "body" }, h("a", { href: `/api/emails/${encodeURIComponent(m.id)}/raw`, target: "_blank" }, "open raw source"), m.raw_truncated ? " (truncated)" : "", pre));
    fetch(`/api/emails/${encodeURIComponent(m.id)}/raw`).then((r) => r.text()).then((t) => { pre.textContent = t; });
  } else if (state.part === "attachments") {
    body.append(m.attachments.length ? h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "File"), h("th", {}, "Type"), h("th", {}, "Size"))),
      h("tbody", {}, m.attachments.map((a) => h("tr", {},
        h("td", {}, h("a", { href: `/api/emails/${encodeURIComponent(m.id)}/attachments/${a.index}`, download: a.filename }, a.filename)),
        h("td", { class: "mono" }, a.content_type), h("td", {}, `${a.size} bytes`)))))
      : h("div", { class: "empty" }, "No attachments."));
  } else {
    body.append(h("ul", { class: "timeline" }, m.events.map((e) => h("li", {}, badge(e.status), " ", when(e.at)))));
  }
  const actions = h("div", { class: "body" }, h("button", { type: "button", class: "danger", onclick: async () => {
    await api("/api/emails/" + encodeURIComponent(m.id), { method: "DELETE" });
    location.hash = "#email";
  } }, "Delete this email"));
  pane.firstChild.append(actions);
}

// ---- messages ----

// The media a message carries (WhatsApp and Instagram image, audio, video, file), from its
// request body: the kind, the URL and a caption when the channel has one.
function mediaOf(m) {
  const kind = m.message_type;
  const media = m.content && ["image", "audio", "video", "file"].includes(kind) ? m.content[kind] : null;
  return media && typeof media.url === "string" ? { kind, url: media.url, caption: media.caption || null } : null;
}
const mediaLabel = { image: "Image", audio: "Audio clip", video: "Video", file: "File" };
// Who the message goes to, as each channel names it.
const recipientLabel = (m) => m.channel === "instagram" ? "Instagram-scoped id" : "Number";

async function renderMessages(main) {
  const data = await api("/api/messages?" + qs({ q: state.q, channel: state.channel, page: state.page, per_page: PER_PAGE }));
  const chips = h("div", { class: "chips" }, ["", "sms", "whatsapp", "voice", "instagram"].map((c) =>
    h("button", { type: "button", class: c === state.channel ? "active" : "", onclick: () => { state.channel = c; state.page = 1; render(); } }, c || "all")));
  const list = h("ul", { class: "list", id: "message-list" });
  for (const m of data.items) {
    const media = mediaOf(m);
    const summary = m.text || (m.template && (m.template.rendered || m.template.name)) || (media && `${mediaLabel[media.kind]}: ${media.url}`) || m.message_type;
    list.append(h("li", { "data-id": m.id, class: m.id === state.id ? "selected" : "", onclick: () => { location.hash = "#messages/" + encodeURIComponent(m.id); } },
      h("span", { class: "who" }, badge(m.channel), " ", m.direction === "inbound" ? `${m.from} → app` : `→ ${m.to}`),
      h("span", { class: "when" }, short(m.created_at)),
      h("span", { class: "subject" }, summary, " ", badge(m.status)),
      m.segments ? h("span", { class: "snippet" }, `${m.encoding}, ${m.segments} segment${m.segments === 1 ? "" : "s"}`) : null));
  }
  if (!data.items.length) list.append(h("li", { class: "empty" }, "No messages yet."));
  const left = h("section", { class: "pane" }, searchBar("Search from, to, text…", chips), list, pager(data, (p) => { state.page = p; render(); }));
  const right = h("section", { class: "pane detail" });
  keepFocus(() => main.replaceChildren(h("div", { class: "split" }, left, right)));
  if (state.id) await messageDetail(right);
  right.append(inboundForm());
}

async function messageDetail(pane) {
  let m;
  try { m = await api("/api/messages/" + encodeURIComponent(state.id)); } catch (e) {
    pane.append(h("div", { class: "empty" }, "This message is gone."));
    return;
  }
  const instagram = m.channel === "instagram";
  const tag = instagram && m.content && m.content.instagram ? m.content.instagram.tag : null;
  const meta = h("dl", { class: "meta" },
    h("dt", {}, "Channel"), h("dd", {}, badge(m.channel), " ", m.message_type, " · ", m.direction),
    h("dt", {}, "From"), h("dd", { id: "message-from" }, m.from, instagram ? h("span", { class: "note" }, " (professional account id)") : null),
    h("dt", {}, "To"), h("dd", { id: "message-recipient" }, m.to, h("span", { class: "note" }, ` (${recipientLabel(m)})`)),
    tag ? [h("dt", {}, "Tag"), h("dd", { id: "message-tag" }, tag, tag === "human_agent" ? h("span", { class: "note" }, " (a person's reply, up to 7 days after the user's last message)") : null)] : null,
    m.content && m.content.client_ref ? [h("dt", {}, "Reference"), h("dd", { class: "mono" }, m.content.client_ref)] : null,
    h("dt", {}, "Status"), h("dd", {}, badge(m.status)),
    m.segments !== null && m.segments !== undefined ? [h("dt", {}, "SMS"), h("dd", { id: "sms-info" }, `${m.encoding}, ${m.segments} segment${m.segments === 1 ? "" : "s"}, ${[...(m.text || "")].length} characters`)] : null,
    h("dt", {}, "Id"), h("dd", { class: "mono" }, m.id));
  const content = h("div", { class: "body" });
  if (m.template) {
    content.append(h("p", {}, "WhatsApp template ", h("b", {}, m.template.name), ` (${m.template.language || ""})`));
    if (m.template.rendered) content.append(h("div", { class: "sms-bubble", id: "template-rendered" }, m.template.rendered));
  } else if (m.text) content.append(h("div", { class: "sms-bubble", id: "message-text" }, m.text));
  const media = mediaOf(m);
  if (media) {
    // A link, never an <img>: the sandbox does not fetch what an app points at.
    content.append(h("div", { class: "media", id: "message-media" },
      h("span", { class: "badge" }, mediaLabel[media.kind]), " ",
      h("a", { href: media.url, target: "_blank", rel: "noopener noreferrer", class: "mono" }, media.url),
      media.caption ? h("div", { class: "caption" }, media.caption) : null));
  }
  content.append(h("details", {}, h("summary", { class: "note" }, "request body"), h("pre", {}, JSON.stringify(m.content, null, 2))));
  const timeline = h("ul", { class: "timeline", id: "message-timeline" }, m.events.map((e) => h("li", {}, badge(e.status), " ", when(e.at))));
  const title = { voice: "Voice call", instagram: "Instagram direct message", whatsapp: "WhatsApp message", sms: "SMS" }[m.channel] || "Message";
  pane.append(h("div", { class: "card" }, h("h2", {}, title), meta, content, h("h3", {}, "Status timeline"), timeline));
}

function inboundForm() {
  const channel = h("select", { name: "channel" }, h("option", { value: "sms" }, "SMS"), h("option", { value: "whatsapp" }, "WhatsApp"));
  const from = h("input", { name: "from", value: "+447700900123" });
  const to = h("input", { name: "to", value: "+15550100" });
  const text = h("textarea", { name: "text" }, "STOP");
  const note = h("span", { class: "note" });
  const form = h("form", { class: "form body", id: "inbound-form", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const r = await api("/api/messages/inbound", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ channel: channel.value, from: from.value, to: to.value, text: text.value }) });
      note.textContent = "sent to the app's webhook as " + r.message_uuid;
    } catch (err) { note.textContent = err.message; }
  } },
    h("label", {}, "Channel"), channel, h("label", {}, "From"), from, h("label", {}, "To"), to, h("label", {}, "Text"), text,
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, "Simulate inbound message"), " ", note));
  return h("div", { class: "card" }, h("h3", {}, "Inbound message"), form);
}

// ---- webhooks ----

async function renderWebhooks(main) {
  const data = await api("/api/webhooks?" + qs({ page: state.page, per_page: PER_PAGE }));
  const rows = [];
  for (const w of data.items) {
    const open = state.open === w.id;
    rows.push(h("tr", { "data-id": w.id, onclick: () => { state.open = open ? null : w.id; render(); } },
      h("td", {}, short(w.created_at)), h("td", {}, w.service), h("td", { class: "mono" }, w.event_type),
      h("td", { class: "wrap mono" }, w.url), h("td", {}, badge(w.status), w.redelivery_of ? [" ", h("span", { class: "note" }, "redelivery")] : null),
      h("td", {}, w.attempts), h("td", {}, w.response_status || (w.error ? h("span", { class: "note" }, w.error) : "")),
      h("td", {}, h("button", { type: "button", class: "redeliver", onclick: async (e) => {
        e.stopPropagation();
        const button = e.currentTarget;
        try {
          await api(`/api/webhooks/${encodeURIComponent(w.id)}/redeliver`, { method: "POST" });
        } catch (err) {
          // Not found, its service not running here, or its queue full: say so on the button.
          button.textContent = "Cannot redeliver";
          button.title = err.message;
        }
      } }, "Redeliver"))));
    if (open) {
      rows.push(h("tr", { class: "expand" }, h("td", { colspan: 8 },
        h("table", {}, h("tbody", {}, w.headers.map((x) => h("tr", {}, h("th", {}, x.name), h("td", { class: "wrap mono" }, x.value))))),
        h("pre", { class: "body" }, pretty(w.body)))));
    }
  }
  const table = h("table", { id: "webhook-list" },
    h("thead", {}, h("tr", {}, ["Time", "Service", "Event", "URL", "Status", "Attempts", "Response", ""].map((t) => h("th", {}, t)))),
    h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: 8, class: "empty" }, "No webhook deliveries yet. Start the sandbox with --webhook-url, or register an endpoint."))));
  main.replaceChildren(h("div", { class: "full" }, h("div", { class: "card" }, h("h2", {}, "Webhook deliveries"),
    h("p", { class: "body note" }, "Click a row for its signature headers and body."), table, pager(data, (p) => { state.page = p; render(); }))));
}

// A body as it was sent, made readable: JSON indented; a form (`To=%2B1555...&Body=Hi`) as
// sent, then each field decoded on a line of its own.
function pretty(text) {
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch (_) { /* not JSON */ }
  if (text && /^[^=&\s]+=[^&\s]*(&[^=&\s]+=[^&\s]*)*$/.test(text)) {
    const fields = [...new URLSearchParams(text)].map(([name, value]) => name + ": " + value);
    return text + "\n\nThe form's fields, decoded:\n" + fields.join("\n");
  }
  return text;
}

// ---- realtime ----

async function renderRealtime(main) {
  const data = await api("/api/realtime?" + qs({ page: state.page, per_page: 100 }));
  const apps = data.apps.map((a) => h("div", { class: "card" }, h("h3", {}, "App ", h("span", { class: "mono" }, a.app_id), " · key ", h("span", { class: "mono" }, a.key)),
    a.channels.length ? h("table", { id: "channel-list" }, h("thead", {}, h("tr", {}, h("th", {}, "Occupied channel"), h("th", {}, "Subscriptions"), h("th", {}, "Presence members"))),
      h("tbody", {}, a.channels.map((c) => h("tr", {}, h("td", { class: "mono" }, c.name), h("td", {}, c.subscription_count), h("td", {}, c.members.join(", ") || "—")))))
      : h("p", { class: "body note" }, "No channel is occupied.")));
  const channel = h("input", { name: "channel", value: "my-channel" });
  const event = h("input", { name: "event", value: "my-event" });
  const payload = h("textarea", { name: "data" }, '{"message":"hello"}');
  const note = h("span", { class: "note" });
  const form = h("form", { class: "form body", id: "trigger-form", onsubmit: async (e) => {
    e.preventDefault();
    try {
      await api("/api/realtime/trigger", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ channel: channel.value, event: event.value, data: payload.value }) });
      note.textContent = "triggered";
    } catch (err) { note.textContent = err.message; }
  } }, h("label", {}, "Channel"), channel, h("label", {}, "Event"), event, h("label", {}, "Data"), payload,
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, "Trigger event"), " ", note));
  const log = h("table", { id: "realtime-log" }, h("thead", {}, h("tr", {}, ["Time", "Kind", "Channel", "Event", "Data", "Socket"].map((t) => h("th", {}, t)))),
    h("tbody", {}, data.items.length ? data.items.map((r) => h("tr", {}, h("td", {}, short(r.created_at)), h("td", {}, badge(r.kind)),
      h("td", { class: "mono" }, r.channel), h("td", { class: "mono" }, r.event || ""), h("td", { class: "wrap mono" }, r.data || ""), h("td", { class: "mono" }, r.socket_id || "")))
      : h("tr", {}, h("td", { colspan: 6, class: "empty" }, "No events yet."))));
  const left = h("div", { class: "pane detail" }, apps, h("div", { class: "card" }, h("h3", {}, "Trigger an event"), form));
  const right = h("div", { class: "pane detail" }, h("div", { class: "card" }, h("h2", {}, "Live event log"), log, pager(data, (p) => { state.page = p; render(); })));
  main.replaceChildren(h("div", { class: "grid2" }, left, right));
}

// ---- specs served with --spec ----

async function renderApis(main) {
  const [data, served] = await Promise.all([
    api("/api/calls?" + qs({ service: state.q, page: state.page, per_page: PER_PAGE })),
    api("/api/specs"),
  ]);
  const services = h("select", { id: "call-service", onchange: (e) => { state.q = e.target.value; state.page = 1; render(); } },
    h("option", { value: "" }, "Every served spec"),
    served.specs.map((s) => h("option", { value: s.name, selected: s.name === state.q }, s.name)));
  const rows = [];
  for (const c of data.items) {
    const open = state.open === c.id;
    rows.push(h("tr", { "data-id": c.id, onclick: () => { state.open = open ? null : c.id; render(); } },
      h("td", {}, short(c.created_at)), h("td", {}, c.service), h("td", { class: "mono" }, c.method),
      h("td", { class: "wrap mono" }, c.path), h("td", { class: "mono" }, c.operation || "—"),
      h("td", {}, h("span", { class: "badge " + (c.status < 400 ? "delivered" : "failed") }, c.status))));
    if (open) {
      rows.push(h("tr", { class: "expand" }, h("td", { colspan: 6 },
        h("h4", {}, "Request body"), h("pre", { class: "body" }, pretty(c.request_body) || "(none)"),
        h("h4", {}, "Answer"), h("pre", { class: "body" }, pretty(c.response_body) || "(none)"),
        c.truncated ? h("p", { class: "note" }, "Cut at 4 KiB.") : null)));
    }
  }
  const calls = h("table", { id: "call-list" },
    h("thead", {}, h("tr", {}, ["Time", "Spec", "Method", "Path", "Operation", "Status"].map((t) => h("th", {}, t)))),
    h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: 6, class: "empty" }, "No calls yet. Start the sandbox with --spec PATH and call it."))));
  const stores = served.specs.map((s) => h("div", { class: "card spec" },
    h("h3", {}, s.name, " · ", h("span", { class: "mono" }, s.base_url)),
    s.collections.length
      ? h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "Collection"), h("th", {}, "Items"))),
        h("tbody", {}, s.collections.map((c) => h("tr", { class: "collection", onclick: () => showItems(s.name, c.name) },
          h("td", { class: "mono" }, c.name), h("td", {}, c.items)))))
      : h("p", { class: "body note" }, "Nothing stored yet."),
    h("div", { class: "items", id: "items-" + s.name })));
  main.replaceChildren(h("div", { class: "full" },
    h("div", { class: "card" }, h("h2", {}, "Calls"),
      h("p", { class: "body note" }, "Every call a spec served with --spec answered. Click a row for the request and answer bodies; headers and keys are never kept."),
      h("div", { class: "bar" }, services), calls, pager(data, (p) => { state.page = p; render(); })),
    stores.length ? stores
      : h("div", { class: "card" }, h("p", { class: "body note" }, "No spec is served here. tidings-sandbox --spec PATH serves a spec of your own or one imported from a provider's OpenAPI document."))));
}

async function showItems(service, collection) {
  const box = document.getElementById("items-" + service);
  if (!box) return;
  try {
    const data = await api(`/api/specs/${encodeURIComponent(service)}/items?` + qs({ collection, per_page: PER_PAGE }));
    box.replaceChildren(h("h4", {}, collection, ` (${data.total})`),
      ...data.items.map((item) => h("pre", { class: "body" }, JSON.stringify(item, null, 2))));
  } catch (err) { box.replaceChildren(h("p", { class: "note" }, err.message)); }
}

// ---- templates and contacts ----

async function renderDirectory(main) {
  const [templates, contacts] = await Promise.all([api("/api/email/templates"), api("/api/email/contacts")]);
  const table = (cols, items) => items.length
    ? h("table", {}, h("thead", {}, h("tr", {}, cols.map(([, label]) => h("th", {}, label)))),
      h("tbody", {}, items.map((i) => h("tr", {}, cols.map(([k]) => h("td", {}, Array.isArray(i[k]) ? i[k].join(", ") : (i[k] ?? "")))))))
    : h("p", { class: "body note" }, "None yet.");
  main.replaceChildren(h("div", { class: "full" },
    h("div", { class: "card" }, h("h2", {}, "Email templates"), table([["name", "Name"], ["alias", "Alias"], ["status", "Status"], ["subject", "Subject"], ["id", "Id"]], templates.items)),
    h("div", { class: "card" }, h("h2", {}, "Contacts"), table([["email", "Email"], ["first_name", "First name"], ["last_name", "Last name"], ["unsubscribed", "Unsubscribed"], ["id", "Id"]], contacts.items))));
}

// ---- wiring ----

// When each render finished (performance.now()), the last 100: what the browser tests time.
window.inboxRenders = [];
let rendering = false, again = false;
async function render() {
  if (rendering) { again = true; return; }
  rendering = true;
  const main = document.getElementById("main");
  try {
    const view = { email: renderEmail, messages: renderMessages, webhooks: renderWebhooks, realtime: renderRealtime, apis: renderApis, directory: renderDirectory }[state.tab] || renderEmail;
    await view(main);
    window.inboxRenders.push({ tab: state.tab, page: state.page, q: state.q, at: performance.now() });
    if (window.inboxRenders.length > 100) window.inboxRenders.shift();
  } catch (e) {
    main.replaceChildren(h("div", { class: "empty" }, "Cannot load: " + e.message));
  } finally {
    rendering = false;
    if (again) { again = false; render(); }
  }
}

const kindOfTab = { email: "email", messages: "message", webhooks: "webhook", realtime: "realtime", apis: "call" };
let refresh = null;
function live() {
  const badgeEl = document.getElementById("live");
  const source = new EventSource("/api/events");
  source.onopen = () => { badgeEl.textContent = "live"; badgeEl.className = "live on"; summary(); render(); };
  source.onerror = () => { badgeEl.textContent = "reconnecting"; badgeEl.className = "live off"; };
  source.addEventListener("change", (e) => {
    let change = {};
    try { change = JSON.parse(e.data); } catch (_) { /* a reload then */ }
    const mine = change.kind === "all" || change.kind === kindOfTab[state.tab];
    // Lists are re-read at most every 100 ms while changes flow; typing is not interrupted.
    clearTimeout(refresh);
    refresh = setTimeout(() => { summary(); if (mine || state.tab === "directory") render(); }, 100);
  });
}

document.getElementById("clear-all").addEventListener("click", async () => {
  if (!confirm("Forget every email, message, webhook delivery, realtime event and call?")) return;
  await api("/api/all", { method: "DELETE" });
  location.hash = "#" + state.tab;
  render();
});
window.addEventListener("hashchange", route);
route();
summary();
live();
