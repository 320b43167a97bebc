// Issue 34's chat message flood, from another thread (its own event loop, like another machine):
// for each of `senders` ({address, token}), `socketsPerAddress` sockets speaking from that address
// (X-Forwarded-For, the app behind one proxy) sign in and send `chat_message` frames as fast as the
// connection takes them until `seconds` have passed. A socket the server closes is opened again
// and goes on, as an attacker's would. Posts {type:'ready'} once every socket has signed in (or closed) and
// {type:'done', ...} at the end, when every socket is terminated: the flood stops itself.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, senders, socketsPerAddress, seconds } = workerData;
/** What one socket keeps unsent before it waits a turn: "as fast as the connection takes them". */
const HIGH_WATER = 64 * 1024;
const BURST = 20;

let stopAt = Number.POSITIVE_INFINITY;
let framesSent = 0;
let opened = 0;
let reopened = 0;
const closeCodes = {};
/** Opens the server refused before upgrading them, by HTTP status. */
const refused = {};
/** The first refused open's status, content type and body. */
let refusedAnswer = null;
let flooding = false;
const live = new Set();

function open(sender, first) {
  return new Promise((resolve) => {
    if (Date.now() >= stopAt) return resolve();
    const socket = new WebSocket(`${url}/ws`, { headers: { 'x-forwarded-for': sender.address } });
    live.add(socket);
    // Ready once signed in: the flood is of messages, not of sign-ins. An open refused before the
    // flood (the address's opens per second) is tried again until the socket signs in.
    socket.on('message', (data) => {
      if (first && data.toString().startsWith('{"type":"auth"')) resolve();
    });
    socket.on('unexpected-response', (_request, response) => {
      refused[response.statusCode] = (refused[response.statusCode] ?? 0) + 1;
      if (refusedAnswer !== null) return void socket.terminate();
      // The first refusal's answer, read whole: what a client is told.
      refusedAnswer = { status: response.statusCode, type: response.headers['content-type'], body: '' };
      response.on('data', (chunk) => {
        refusedAnswer.body += chunk;
      });
      response.on('end', () => socket.terminate());
      response.on('error', () => socket.terminate());
    });
    socket.on('error', () => {});
    socket.once('close', (code) => {
      live.delete(socket);
      closeCodes[code] = (closeCodes[code] ?? 0) + 1;
      if (first && !flooding) return void setTimeout(() => open(sender, true).then(resolve), 0);
      resolve();
      if (Date.now() < stopAt) {
        reopened += 1;
        setTimeout(() => open(sender, false), 0);
      }
    });
    socket.once('open', () => {
      opened += 1;
      socket.send(JSON.stringify({ type: 'auth', token: sender.token }));
      const frame = JSON.stringify({
        type: 'chat_message',
        message: `flood ${sender.address}`,
        dareId: null,
      });
      const pump = () => {
        if (socket.readyState !== WebSocket.OPEN || Date.now() >= stopAt) return;
        // A turn's worth at most: a connection that drains at once must not hold this thread.
        for (let i = 0; i < BURST && socket.bufferedAmount < HIGH_WATER; i += 1) {
          socket.send(frame);
          framesSent += 1;
        }
        setImmediate(pump);
      };
      started.then(pump);
    });
  });
}

let start;
const started = new Promise((resolve) => {
  start = resolve;
});
const opening = [];
for (const sender of senders) for (let i = 0; i < socketsPerAddress; i += 1) opening.push(open(sender, true));
await Promise.all(opening);
parentPort.postMessage({ type: 'ready', opened });
// The parent times reads without the flood first.
await new Promise((resolve) => parentPort.once('message', resolve));
stopAt = Date.now() + seconds * 1000;
flooding = true;
start();
setTimeout(() => {
  const stillOpen = [...live].filter((socket) => socket.readyState === WebSocket.OPEN).length;
  for (const socket of live) socket.terminate();
  parentPort.postMessage({
    type: 'done',
    framesSent,
    opened,
    reopened,
    stillOpen,
    closeCodes,
    refused,
    refusedAnswer,
  });
}, seconds * 1000);
