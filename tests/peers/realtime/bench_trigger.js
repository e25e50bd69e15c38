// Signed triggers per second with the official Node library, `concurrency` requests in flight.
// Usage: node bench_trigger.js <port> <app_id> <key> <secret> <total> <concurrency>
const Pusher = require('pusher');
const http = require('http');
const [port, appId, key, secret, total, concurrency] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrency) });
const pusher = new Pusher({ appId, key, secret, host: '127.0.0.1', port, useTLS: false, agent });
(async () => {
  let next = 0;
  const start = process.hrtime.bigint();
  const worker = async () => {
    while (next < Number(total)) {
      const i = next++;
      const res = await pusher.trigger('bench', 'tick', { i });
      if (res.status !== 200) throw new Error('status ' + res.status);
    }
  };
  await Promise.all(Array.from({ length: Number(concurrency) }, worker));
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(JSON.stringify({ total: Number(total), seconds: secs, per_second: Number(total) / secs }));
})().catch((e) => { console.error(String(e && (e.body || e.message) || e)); process.exit(1); });
