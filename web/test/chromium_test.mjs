// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Opens the viewer with #test in headless Chromium and waits for the page's
// scripted obstacle drop to write its result into #test-result, through
// the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages
// ended by NUL, Chromium reading fd 3 and writing fd 4), so no npm package
// and no port. (--dump-dom cannot wait for the page: virtual time runs out
// while the wasm compiles in the background.)
//   node chromium_test.mjs CHROMIUM VIEWER_HTML PROFILE_DIR [TIMEOUT_S]
// Prints the result line; exit 0 when it starts with PASS.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const [browser, page, profile, timeoutS = '180'] = process.argv.slice(2);
const url = `${pathToFileURL(page).href}#test`;
const chrome = spawn(browser, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    `--user-data-dir=${profile}`, '--remote-debugging-pipe', url],
{ stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
const toChrome = chrome.stdio[3], fromChrome = chrome.stdio[4];

let nextId = 1, pending = new Map(), buffered = '';
fromChrome.on('data', (chunk) => {
    buffered += chunk.toString('utf8');
    let end;
    while ((end = buffered.indexOf('\0')) >= 0) {
        const message = JSON.parse(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        const waiter = pending.get(message.id);
        if (waiter) {
            pending.delete(message.id);
            waiter(message);
        }
    }
});
function send(method, params = {}, sessionId) {
    const id = nextId++;
    toChrome.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
    return new Promise((resolve) => pending.set(id, resolve));
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let result = '';
const deadline = Date.now() + Number(timeoutS) * 1000;
try {
    let target = null;
    while (!target && Date.now() < deadline) {
        const targets = (await send('Target.getTargets')).result?.targetInfos ?? [];
        target = targets.find((t) => t.type === 'page' && t.url.startsWith('file:'));
        if (!target) await sleep(200);
    }
    if (!target) throw new Error('no page target');
    const sessionId = (await send('Target.attachToTarget', { targetId: target.targetId, flatten: true })).result.sessionId;
    while (!result && Date.now() < deadline) {
        const r = await send('Runtime.evaluate', {
            expression: "document.getElementById('test-result')?.textContent ?? ''", returnByValue: true,
        }, sessionId);
        result = r.result?.result?.value ?? '';
        if (!result) await sleep(500);
    }
    if (!result) result = `FAIL no result in ${timeoutS} s`;
} catch (e) {
    result = `FAIL ${e.message}`;
} finally {
    await Promise.race([send('Browser.close'), sleep(2000)]);
    chrome.kill();
}
console.log(`web: viewer test: ${result}`);
process.exit(result.startsWith('PASS') ? 0 : 1);
