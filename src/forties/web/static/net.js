// The table's websocket: hello with the last event number, snapshot and numbered events,
// reconnection by itself (a reload, a lost network, a phone that slept), heartbeats.

const PING_EVERY_MS = 10000;
const DEAD_AFTER_MS = 25000;

export class Connection {
  /**
   * @param {string} tableId
   * @param {string|null} token  the seat's token (null: a spectator)
   * @param {object} on  handlers: snapshot, event, chat, hint, rematch, error, status
   */
  constructor(tableId, token, on) {
    this.tableId = tableId;
    this.token = token;
    this.on = on;
    this.seq = 0;
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.lastHeard = 0;
    this.timer = null;
    this.reconnectTimer = null;
    this.outbox = [];
    // what this seat sent and the table has not yet answered: sent again after a
    // reconnection if the table is still where it was (see resend)
    this.pendingAct = null; // {type: 'act', action, version}
    this.pendingReady = null; // the hand whose review this seat said it was done with
    this.resuming = false;
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.check();
    });
    window.addEventListener('online', () => this.check());
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.tableId)}${q}`;
  }

  start() {
    this.closed = false;
    this.connect();
    if (!this.timer) this.timer = setInterval(() => this.heartbeat(), PING_EVERY_MS / 2);
  }

  connect() {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.onclose = null;
      old.onmessage = null;
      try { old.close(); } catch (e) { /* already closed */ }
    }
    this.status('connecting');
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      this.lastPing = Date.now();
      ws.send(JSON.stringify({ type: 'hello', seq: this.seq }));
      // the server answers in order: the pong comes after the missed events (or the
      // snapshot), when this page knows whether what it sent before was played
      this.resuming = true;
      ws.send(JSON.stringify({ type: 'ping' }));
      this.status('open');
    };
    ws.onmessage = (m) => {
      this.lastHeard = Date.now();
      let msg;
      try { msg = JSON.parse(m.data); } catch (e) { return; }
      this.receive(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === 4403 || ev.code === 4404) {
        // the server refused the token or the table: nothing to retry
        this.status('refused', ev.reason);
        return;
      }
      this.scheduleReconnect();
    };
  }

  scheduleReconnect() {
    if (this.closed || this.reconnectTimer) return;
    this.status('offline');
    const delay = Math.min(5000, 300 * 2 ** this.retry);
    this.retry += 1;
    this.reconnectTimer = setTimeout(() => { this.reconnectTimer = null; this.connect(); }, delay);
  }

  /** Back from sleep or a network change: make sure the socket is alive now. */
  check() {
    if (this.closed) return;
    if (!this.ws || this.ws.readyState > 1 || Date.now() - this.lastHeard > DEAD_AFTER_MS) {
      this.retry = 0;
      this.connect();
    } else if (this.ws.readyState === 1) {
      this.send({ type: 'ping' });
    }
  }

  heartbeat() {
    if (this.closed || !this.ws || this.ws.readyState !== 1) return;
    if (Date.now() - this.lastHeard > DEAD_AFTER_MS) {
      this.connect(); // heard nothing, not even a pong: the connection is dead
      return;
    }
    if (Date.now() - (this.lastPing || 0) >= PING_EVERY_MS) {
      this.lastPing = Date.now();
      this.send({ type: 'ping' });
    }
  }

  status(state, detail) {
    if (this.on.status) this.on.status(state, detail);
  }

  receive(msg) {
    if (msg.view) this.settle(msg.view);
    switch (msg.type) {
      case 'snapshot':
        this.seq = msg.seq || 0;
        this.retry = 0;
        this.status('open');
        this.on.snapshot(msg);
        this.flush();
        break;
      case 'event':
        if (!this.inOrder(msg)) return;
        this.retry = 0;
        this.status('open');
        this.on.event(msg);
        break;
      case 'chat': // chat lines are numbered with the table's events
        if (!this.inOrder(msg)) return;
        if (this.on.chat) this.on.chat(msg);
        break;
      case 'hint':
        if (this.on.hint) this.on.hint(msg);
        break;
      case 'rematch':
        if (this.on.rematch) this.on.rematch(msg);
        break;
      case 'error':
        this.pendingAct = null; // refused (stale, illegal, too fast): nothing to send again
        if (this.on.error) this.on.error(msg);
        break;
      case 'pong':
        this.status('open');
        if (this.resuming) {
          this.resuming = false;
          this.resend();
        }
        break;
      default:
        if (this.on.other) this.on.other(msg);
    }
  }

  /** Whether a numbered frame is the next one: a repeat is dropped; after a gap the
   *  connection starts again from the last number it has, and the server sends the rest. */
  inOrder(msg) {
    if (typeof msg.seq !== 'number') return true;
    if (msg.seq <= this.seq) return false;
    if (msg.seq > this.seq + 1) {
      this.connect();
      return false;
    }
    this.seq = msg.seq;
    return true;
  }

  /** Send a frame now, or when the connection is back (actions are never queued: a stale
   *  one would be refused anyway, and the player sees the new position first). */
  send(obj, queue = false) {
    if (this.ws && this.ws.readyState === 1) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    if (queue) this.outbox.push(obj);
    return false;
  }

  flush() {
    const waiting = this.outbox;
    this.outbox = [];
    for (const m of waiting) this.send(m);
  }

  act(action, version) {
    this.pendingAct = { type: 'act', action, version };
    return this.send(this.pendingAct);
  }

  /** Done with the review of hand ``hand`` (kept and sent again as an action is). */
  ready(hand) {
    this.pendingReady = Number.isInteger(hand) ? hand : null;
    return this.send({ type: 'ready' });
  }

  /** Forget what the table has moved past: an action once the view's version is another
   *  (played, or overtaken), a ``ready`` once the review of its hand is over. */
  settle(view) {
    if (this.pendingAct && view.version !== this.pendingAct.version) this.pendingAct = null;
    if (this.pendingReady !== null
        && (view.hand_index !== this.pendingReady || view.phase !== 'hand-over')) {
      this.pendingReady = null;
    }
  }

  /** Back after a lost connection and up to date (the pong after hello): what was sent on
   *  the old connection and not played (lost with it, or with a server that died) is sent
   *  again; were it played after all, the server refuses the copy as stale. */
  resend() {
    if (this.pendingAct) this.send(this.pendingAct);
    if (this.pendingReady !== null) this.send({ type: 'ready' });
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = null;
    if (this.ws) this.ws.close();
  }
}
