// Many pusher-js clients (its Node build) in one process, for tests/tests/realtime_scale.rs.
// Each connection subscribes to `fanout` and to subs-1 channels of its own. Prints JSON lines:
//   {"ready":true,"rss_before":B,"rss_after":A}     all subscribed (after a GC on both sides)
//   {"idle_cpu_us":U,"idle_ms":M}                   process CPU time over M ms of idle heartbeat
//   {"listening":true}                              now counting `f` events on `fanout`
//   {"received":N,"p50_us":X,"p99_us":Y}            every connection got every event (or time ran out)
// Usage: node --expose-gc scale.js <port> <key> <connections> <subs> <ping_after_ms> <idle_ms> <events>
const Pusher = require('pusher-js');
const [port, key, connections, subs, pingAfterMs, idleMs, events] = process.argv.slice(2).map(
  (v, i) => (i === 1 ? v : Number(v)));
const gc = () => { if (global.gc) { global.gc(); global.gc(); } };
const nowUs = () => (performance.timeOrigin + performance.now()) * 1000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  gc();
  const rssBefore = process.memoryUsage().rss;
  const latencies = [];
  let pending = connections * subs;
  let allSubscribed;
  const subscribed = new Promise((resolve) => { allSubscribed = resolve; });
  const clients = [];
  let counting = false;
  for (let i = 0; i < connections; i++) {
    const pusher = new Pusher(key, {
      cluster: 'local', wsHost: '127.0.0.1', wsPort: port, forceTLS: false,
      enabledTransports: ['ws'], disableStats: true,
      activityTimeout: pingAfterMs, pongTimeout: 30000,
    });
    clients.push(pusher);
    const names = ['fanout'];
    for (let k = 1; k < subs; k++) names.push(`c${i}-${k}`);
    for (const name of names) {
      const ch = pusher.subscribe(name);
      ch.bind('pusher:subscription_succeeded', () => { if (--pending === 0) allSubscribed(); });
      ch.bind('pusher:subscription_error', (e) => {
        console.error('subscription error', JSON.stringify(e));
        process.exit(2);
      });
      if (name === 'fanout') {
        ch.bind('f', (data) => {
          if (counting) latencies.push(nowUs() - data.sent_us);
        });
      }
    }
  }
  await subscribed;
  await sleep(500);
  gc();
  const rssAfter = process.memoryUsage().rss;
  console.log(JSON.stringify({ ready: true, rss_before: rssBefore, rss_after: rssAfter }));

  const cpu0 = process.cpuUsage();
  await sleep(idleMs);
  const cpu = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ idle_cpu_us: cpu.user + cpu.system, idle_ms: idleMs }));

  counting = true;
  console.log(JSON.stringify({ listening: true }));
  const want = connections * events;
  const deadline = Date.now() + 120000;
  while (latencies.length < want && Date.now() < deadline) await sleep(20);
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.round((latencies.length - 1) * q)] || 0);
  console.log(JSON.stringify({ received: latencies.length, p50_us: at(0.5), p99_us: at(0.99) }));
  for (const c of clients) c.disconnect();
  setTimeout(() => process.exit(0), 200);
}

main();
setTimeout(() => { console.error('scale.js timed out'); process.exit(3); }, 600000);
