#!/usr/bin/env node
// tests/browser/flame.js - a dirscript flame graph in headless Chromium.
//
//   node flame.js SVG FOLDED TERM OUTDIR [tall]
//
// SVG: dirscript --flamegraph's file; FOLDED: the same event's stacks as dirscript
// --folded prints them; TERM: a search term (a regular expression) that matches some
// frames; OUTDIR: where the screenshots go (flame.png, zoom.png, search.png; with
// "tall", NAME-flame.png ... where NAME is the SVG's base name).  The window is
// 1200 x 800 pixels.
// Checks, each printed as "PASS name" or "FAIL name (why)" (names suffixed ":tall"
// with "tall"), exit 1 on any FAIL:
//   tall     (with "tall" only) the SVG is taller than the window: the checks below
//            run on a graph that must be scrolled
//   load     the page loads without a script error; the title and Search are shown
//   open     the first screen shows the root frame (a flame graph opens scrolled to
//            its bottom), and the title, Search and the details line are in the
//            window
//   zoom     a click on the widest frame that is not full width (scrolled into the
//            middle of the window first) makes it full width
//            (x at the left margin), hides a frame outside its subtree and shows
//            Reset Zoom; Reset Zoom restores every frame's first place
//   search   Search (its prompt answered with TERM) turns exactly the frames whose
//            name matches TERM magenta, and "Matched: P%" is the share of FOLDED's
//            samples whose stack has a part matching TERM
//   urlsearch  ?s=TERM searches at load, with the same result
'use strict';
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const puppeteer = require('puppeteer-core');

const [svgPath, foldedPath, term, outDir, mode] = process.argv.slice(2);
const tall = mode === 'tall';
const VIEW = { width: 1200, height: 800 };
const sfx = tall ? ':tall' : '';
const shot = (n) => path.join(outDir, tall ? `${path.basename(svgPath, '.svg')}-${n}` : n);
let failed = 0;
const pass = (n, note) => console.log(`PASS browser-flame:${n}${sfx}${note ? ` (${note})` : ''}`);
const fail = (n, why) => { failed++; console.log(`FAIL browser-flame:${n}${sfx} (${why})`); };

// Whether an element's box lies in the window (as scrolled now).
function inView(page, sel) {
	return page.$eval(sel, (e) => {
		const b = e.getBoundingClientRect();
		return b.height > 0 && b.top >= 0 && b.bottom <= window.innerHeight;
	}).catch(() => false);
}

// The expected "Matched" text from the folded stacks.
function expectedMatched(re) {
	let total = 0, hit = 0;
	for (const line of fs.readFileSync(foldedPath, 'utf8').split('\n')) {
		const m = /^(.*) (\d+)$/.exec(line);
		if (!m) continue;
		const n = +m[2];
		total += n;
		if (m[1].split(';').some((p) => re.test(p))) hit += n;
	}
	return `Matched: ${(total ? (100 * hit) / total : 0).toFixed(2)}%`;
}

// Every frame's name, place and fill, in document order.
// Click a pinned control (#unzoom, #search) as a user would: scrolled into view
// first, then clicked where it is once the page's scroll handler has pinned it
// (page.click() scrolls and clicks at once: the handler, run at the next frame,
// could move the control away from the point clicked on a loaded machine).
async function clickPinned(page, sel) {
	await page.$eval(sel, (e) => e.scrollIntoView({ block: 'center' }));
	await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
	const box = await (await page.$(sel)).boundingBox();
	await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

function frames(page) {
	return page.$$eval('#frames > g.f', (gs) => gs.map((g) => {
		const t = g.querySelector('title').textContent;
		const r = g.querySelector('rect');
		return { name: t.substring(0, t.lastIndexOf(' (')), x: +g.dataset.x,
			 n: +g.dataset.n, d: +g.dataset.d, rx: r.getAttribute('x'),
			 rw: r.getAttribute('width'), fill: r.getAttribute('fill'),
			 hidden: getComputedStyle(g).display === 'none' };
	}));
}

async function checkSearch(page, name, re, before) {
	const after = await frames(page);
	const want = before.filter((f) => re.test(f.name)).length;
	const magenta = after.filter((f) => f.fill === 'rgb(230,0,230)');
	const wrong = after.filter((f, i) => (f.fill === 'rgb(230,0,230)') !== re.test(f.name) ||
				   (!re.test(f.name) && f.fill !== before[i].fill));
	const text = await page.$eval('#matched', (e) => e.textContent);
	const expect = expectedMatched(re);
	if (!want) fail(name, `no frame matches ${term}`);
	else if (magenta.length !== want || wrong.length)
		fail(name, `${magenta.length} frames highlighted, ${want} match; ${wrong.length} wrong`);
	else if (text !== expect) fail(name, `"${text}", expected "${expect}"`);
	else pass(name, `${want} frames, ${text}`);
}

(async () => {
	const browser = await puppeteer.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
	});
	try {
		const page = await browser.newPage();
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		await page.setViewport(VIEW);
		const url = pathToFileURL(path.resolve(svgPath)).href;
		await page.goto(url, { waitUntil: 'load' });
		const title = await page.$eval('#title', (e) => e.textContent).catch(() => null);
		const search = await page.$eval('#search', (e) => e.textContent).catch(() => null);
		const before = await frames(page);
		if (errors.length) fail('load', errors.join('; '));
		else if (!title || search !== 'Search' || before.length < 2)
			fail('load', `title ${title}, search control ${search}, ${before.length} frames`);
		else pass('load', `${before.length} frames, "${title}"`);
		const height = await page.evaluate(() => +document.documentElement.getAttribute('height'));
		const clip = { x: 0, y: 0, width: 1200, height };
		if (tall && height <= VIEW.height)
			fail('tall', `the SVG is ${height} px high, the window ${VIEW.height}`);
		else if (tall)
			pass('tall', `${height} px in a ${VIEW.height} px window`);

		// the first screen: the root, the controls
		const inverted = await page.evaluate(() => document.documentElement.dataset.inverted === '1');
		const seen = {};
		for (const [k, sel] of [['root', '#frames > g.f rect'], ['title', '#title'],
					['search', '#search'], ['details line', '#foot > rect']])
			seen[k] = await inView(page, sel);
		const missing = Object.keys(seen).filter((k) => !seen[k]);
		if (inverted) pass('open', 'icicle graph: the root on top');
		else if (missing.length) fail('open', `not in the first ${VIEW.height} px: ${missing.join(', ')}`);
		else pass('open', `root, title, Search and details in the window (scrolled ${await page.evaluate(() => window.scrollY)} px)`);
		await page.screenshot({ path: shot('first-screen.png') });
		await page.screenshot({ path: shot('flame.png'), clip });

		// zoom: the widest frame below the root that is not full width
		const total = before[0].n;
		let z = -1;
		before.forEach((f, i) => {
			if (f.d >= 2 && f.n < total && (z < 0 || f.n > before[z].n)) z = i;
		});
		if (z < 0) {
			fail('zoom', 'no frame to zoom into');
		} else {
			const el = (await page.$$('#frames > g.f'))[z];
			// a tall graph: the frame may be outside the window (and the
			// controls are pinned over its edges)
			await el.$eval('rect', (r) => r.scrollIntoView({ block: 'center' }));
			const box = await (await el.$('rect')).boundingBox();
			await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
			const after = await frames(page);
			const zf = before[z];
			const outside = after.findIndex((f, i) => f.d >= zf.d &&
				(before[i].x + before[i].n <= zf.x || before[i].x >= zf.x + zf.n));
			const reset = await page.$eval('#unzoom', (e) => getComputedStyle(e).display);
			if (errors.length) fail('zoom', errors.join('; '));
			else if (after[z].rw !== after[0].rw || after[z].rx !== '10.0')
				fail('zoom', `"${zf.name}" at x ${after[z].rx} width ${after[z].rw}, full width ${after[0].rw}`);
			else if (outside >= 0 && !after[outside].hidden)
				fail('zoom', `"${after[outside].name}" outside the zoomed frame is shown`);
			else if (reset === 'none') fail('zoom', 'Reset Zoom not shown');
			else pass('zoom', `"${zf.name}" ${before[z].rw} -> ${after[z].rw} px`);
			await page.screenshot({ path: shot('zoom.png'), clip });
			await clickPinned(page, '#unzoom');
			const back = await frames(page);
			const moved = back.findIndex((f, i) => f.rx !== before[i].rx ||
						       f.rw !== before[i].rw || f.hidden);
			if (moved >= 0) fail('unzoom', `"${back[moved].name}" not back in place`);
			else pass('unzoom');
		}

		// search through the prompt
		const re = new RegExp(term);
		page.once('dialog', (d) => d.accept(term));
		await clickPinned(page, '#search');
		await checkSearch(page, 'search', re, before);
		await page.screenshot({ path: shot('search.png'), clip });

		// ?s=TERM
		await page.goto(`${url}?s=${encodeURIComponent(term)}`, { waitUntil: 'load' });
		await checkSearch(page, 'urlsearch', re, before);
		if (errors.length) fail('errors', errors.join('; '));
	} finally {
		await browser.close();
	}
	process.exit(failed ? 1 : 0);
})().catch((e) => {
	console.log(`FAIL browser-flame:run${sfx} (${e && e.message ? e.message : e})`);
	process.exit(1);
});
