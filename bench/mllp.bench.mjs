// MLLP send throughput: messages per second over loopback with one ACK per message (one message in flight),
// `createMllpClient` (chart-export/mllp: framing, MSH-10 read, the ACK parsed and MSA-2 matched, time-out
// checked per message), with each send awaited (the headline) and with sends queued, against a floor: a raw socket writer that writes the same frames and waits for the end
// block of the peer's answer, parsing nothing. Both talk to the same ACK server, in a child process of its own
// (this script with --serve), which answers every message with an ACK naming its MSH-10. Rounds are interleaved,
// the order alternating, each ratio taken within its round (client msg/s over floor msg/s), medians reported.
//
// Then memory: 100 000 messages through one client, heap and RSS (after a GC) at 10 000 and at the end.
//
//   npm run build && node --expose-gc bench/mllp.bench.mjs
//   BENCH_DURATION=0.5 BENCH_ROUNDS=15 BENCH_MEMORY_MESSAGES=100000 node --expose-gc bench/mllp.bench.mjs   (the defaults)
//   BENCH_STRICT=1 … exits non-zero when the ratio is below the 0.8 target.
import { fork } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const TARGET_RATIO = 0.8;
const DURATION = Number(process.env.BENCH_DURATION ?? 0.5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const MEMORY_MESSAGES = Number(process.env.BENCH_MEMORY_MESSAGES ?? 100_000);
const SELF = fileURLToPath(import.meta.url);

// ---------------------------------------------------------------------------------------------------------
// The ACK server (child process): frames in, one ACK per frame out, MSA-2 = the frame's MSH-10.
// ---------------------------------------------------------------------------------------------------------
function serve() {
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    let pending = [];
    socket.on('data', (chunk) => {
      let from = 0;
      for (;;) {
        const end = chunk.indexOf(0x1c, from);
        if (end === -1) break;
        pending.push(chunk.subarray(from, end));
        const message = Buffer.concat(pending).toString('latin1');
        pending = [];
        from = end + 2;
        const msh = message.slice(message.indexOf('MSH'), message.indexOf('\r'));
        const controlId = msh.split('|')[9] ?? '';
        socket.write(`\x0bMSH|^~\\&|ENGINE|HOSP|CHART-EXPORT||20260301093000||ACK^A31^ACK|A${controlId}|P|2.5.1\rMSA|AA|${controlId}\r\x1c\r`);
      }
      if (from < chunk.length) pending.push(Buffer.from(chunk.subarray(from)));
    });
    socket.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('disconnect', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------------------
// The two senders.
// ---------------------------------------------------------------------------------------------------------

/** The floor: write a frame, wait for the answer's end block, repeat; nothing parsed or checked. */
async function floorRun(port, frames, seconds) {
  const socket = connect({ host: '127.0.0.1', port });
  socket.setNoDelay(true);
  await new Promise((resolve) => socket.once('connect', resolve));
  let count = 0;
  const cpu = process.cpuUsage();
  const deadline = performance.now() + seconds * 1000;
  await new Promise((resolve) => {
    const next = () => {
      if (performance.now() >= deadline) return resolve();
      socket.write(frames[count % frames.length]);
    };
    socket.on('data', (chunk) => {
      if (chunk.indexOf(0x1c) === -1) return;
      count++;
      next();
    });
    next();
  });
  const used = process.cpuUsage(cpu);
  socket.destroy();
  return { rate: count / seconds, cpu: (used.user + used.system) / count };
}

/**
 * The client. `awaited`: `send` each message and await its ACK before building the next call (the frame is
 * encoded between one ACK and the next write). `queued`: keep up to 64 messages queued (`send` without
 * awaiting, as `chart-export send --all` could, or a feed producer), so each frame is encoded while the
 * previous ACK is awaited, as the floor's frames are encoded before it starts. Either way one message is in
 * flight: the client writes the next only after the ACK of the one before.
 */
async function clientRun(mllp, port, messages, seconds, mode) {
  const client = mllp.createMllpClient({ host: '127.0.0.1', port, ackTimeoutMs: 10_000 });
  let count = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  if (mode === 'awaited') {
    while (performance.now() < deadline) {
      await client.send(messages[count % messages.length]);
      count++;
    }
  } else {
    let outstanding = 0;
    let sent = 0;
    let wake;
    const onAck = () => {
      count++;
      outstanding--;
      if (wake !== undefined) {
        const w = wake;
        wake = undefined;
        w();
      }
    };
    while (performance.now() < deadline) {
      if (outstanding >= 64) {
        await new Promise((resolve) => (wake = resolve));
        continue;
      }
      outstanding++;
      client.send(messages[sent++ % messages.length]).then(onAck);
    }
    while (outstanding > 0) await new Promise((resolve) => (wake = resolve));
  }
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await client.close();
  return { rate: count / elapsed, cpu: (used.user + used.system) / count };
}

async function memoryRun(mllp, port, messages, total) {
  const client = mllp.createMllpClient({ host: '127.0.0.1', port, ackTimeoutMs: 10_000 });
  const sample = () => {
    globalThis.gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    return { heapUsed, rss };
  };
  let base;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    if (i === 10_000) base = sample();
    await client.send(messages[i % messages.length]);
  }
  const seconds = (performance.now() - started) / 1000;
  const end = sample();
  await client.close();
  return { base: base ?? end, end, rate: total / seconds };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

async function main() {
  const core = await import('../dist/index.js');
  const mllp = await import('../dist/mllp/index.js');
  const demo = (await import('../examples/data/demo-chart.json', { with: { type: 'json' } })).default;
  // 200 distinct ADT^A31 messages of the demo chart (about 1 KB each), each with its own MSH-10.
  const messages = [];
  for (let i = 0; i < 200; i++) {
    const chart = demo.patients[i % demo.patients.length];
    messages.push(core.buildAdtA31(chart, { sendingApplication: 'CHART-EXPORT', now: '2026-03-01T09:30:00-05:00', controlId: `ADT${String(i).padStart(8, '0')}` }));
  }
  const frames = messages.map((m) => Buffer.concat([Buffer.from([0x0b]), Buffer.from(m, 'utf8'), Buffer.from([0x1c, 0x0d])]));
  const bytes = Math.round(frames.reduce((n, f) => n + f.length, 0) / frames.length);

  const child = fork(SELF, ['--serve'], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { port } = await new Promise((resolve) => child.once('message', resolve));
  try {
    // Warm-up of every side.
    await floorRun(port, frames, 0.3);
    await clientRun(mllp, port, messages, 0.3, 'queued');
    await clientRun(mllp, port, messages, 0.3, 'awaited');
    const runs = { floor: [], queued: [], awaited: [] };
    const sides = {
      floor: () => floorRun(port, frames, DURATION),
      queued: () => clientRun(mllp, port, messages, DURATION, 'queued'),
      awaited: () => clientRun(mllp, port, messages, DURATION, 'awaited'),
    };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['floor', 'queued', 'awaited'] : ['awaited', 'queued', 'floor'];
      for (const side of order) runs[side].push(await sides[side]());
    }
    const ratioOf = (side) => median(runs[side].map((c, i) => c.rate / runs.floor[i].rate));
    const ratio = ratioOf('awaited');
    const row = (side) => ({ 'msg/s': Math.round(median(runs[side].map((r) => r.rate))), 'sender CPU µs/msg': median(runs[side].map((r) => r.cpu)).toFixed(1) });
    console.log(`MLLP over loopback, one ACK per message, ${bytes}-byte frames; ${ROUNDS} interleaved rounds of ${DURATION} s (medians; each ratio within its round)`);
    console.table({
      'raw socket writer (floor)': row('floor'),
      'createMllpClient, each send awaited': { ...row('awaited'), 'ratio to floor': ratio.toFixed(2) },
      'createMllpClient, sends queued': { ...row('queued'), 'ratio to floor': ratioOf('queued').toFixed(2) },
    });
    if (process.env.BENCH_VERBOSE) for (const side of Object.keys(runs)) console.log(side.padEnd(8), runs[side].map((r) => Math.round(r.rate)).join(' '));

    const memory = await memoryRun(mllp, port, messages, MEMORY_MESSAGES);
    const heapGrowth = memory.end.heapUsed - memory.base.heapUsed;
    const rssGrowth = memory.end.rss - memory.base.rss;
    console.log(`\nMemory over ${MEMORY_MESSAGES} messages through one client (${Math.round(memory.rate)} msg/s${globalThis.gc === undefined ? '; run with --expose-gc for figures after a GC' : ', after a GC'}):`);
    console.log(`  heap at 10 000: ${mib(memory.base.heapUsed)}, at the end: ${mib(memory.end.heapUsed)} (growth ${mib(heapGrowth)})`);
    console.log(`  RSS  at 10 000: ${mib(memory.base.rss)}, at the end: ${mib(memory.end.rss)} (growth ${mib(rssGrowth)})`);
    console.log(`\nTarget: createMllpClient (each send awaited) ≥ ${TARGET_RATIO}× the raw socket floor's msg/s: ${ratio.toFixed(2)} (sends queued: ${ratioOf('queued').toFixed(2)}).`);
    console.log(`SUMMARY\tMLLP msg/s, createMllpClient (each send awaited) / raw socket floor, 1 ACK per message\t${ratio.toFixed(2)}\t>= ${TARGET_RATIO}`);
    if (process.env.BENCH_STRICT && ratio < TARGET_RATIO) process.exitCode = 1;
  } finally {
    child.kill();
  }
}

if (process.argv.includes('--serve')) serve();
else await main();
