// The flood of chat joins from another thread (its own event loop, like another machine): opens
// `sockets` sockets from this one address, then each socket still open sends a join and a leave of
// `dareId` once a second for `seconds`, as issue 28's flood did. Posts {type:'ready'} once every
// socket has opened (or failed to) and {type:'done', ...} at the end.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, sockets: count, dareId, seconds } = workerData;
const open = [];
let refused = 0;
for (let i = 0; i < count; i += 50) {
  const batch = Array.from({ length: Math.min(50, count - i) }, () => {
    const socket = new WebSocket(`${url}/ws`);
    socket.on('message', () => {});
    socket.on('close', () => {});
    return new Promise((resolve) => {
      socket.once('open', () => {
        open.push(socket);
        resolve();
      });
      socket.once('error', () => {
        refused += 1;
        resolve();
      });
    });
  });
  await Promise.all(batch);
}
parentPort.postMessage({ type: 'ready', open: open.length, refused });

const join = JSON.stringify({ type: 'join', dareId });
const leave = JSON.stringify({ type: 'leave', dareId });
let rounds = 0;
let sent = 0;
const flood = () => {
  rounds += 1;
  for (const socket of open) {
    if (socket.readyState !== WebSocket.OPEN) continue;
    socket.send(join);
    socket.send(leave);
    sent += 1;
  }
};
flood();
const timer = setInterval(flood, 1000);
setTimeout(() => {
  clearInterval(timer);
  const stillOpen = open.filter((socket) => socket.readyState === WebSocket.OPEN).length;
  for (const socket of open) socket.terminate();
  parentPort.postMessage({ type: 'done', rounds, sent, stillOpen });
}, seconds * 1000);
