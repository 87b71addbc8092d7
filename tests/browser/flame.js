#!/usr/bin/env node
// tests/browser/flame.js - a dirscript flame graph in headless Chromium.
//
//   node flame.js SVG FOLDED TERM OUTDIR
//
// SVG: dirscript --flamegraph's file; FOLDED: the same event's stacks as dirscript
// --folded prints them; TERM: a search term (a regular expression) that matches some
// frames; OUTDIR: where the screenshots go (flame.png, zoom.png, search.png).
// Checks, each printed as "PASS name" or "FAIL name (why)", exit 1 on any FAIL:
//   load     the page loads without a script error; the title and Search are shown
//   zoom     a click on the widest frame that is not full width makes it full width
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

const [svgPath, foldedPath, term, outDir] = process.argv.slice(2);
let failed = 0;
const pass = (n, note) => console.log(`PASS browser-flame:${n}${note ? ` (${note})` : ''}`);
const fail = (n, why) => { failed++; console.log(`FAIL browser-flame:${n} (${why})`); };

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
		await page.setViewport({ width: 1200, height: 800 });
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
		await page.screenshot({ path: path.join(outDir, 'flame.png'), clip });

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
			await page.screenshot({ path: path.join(outDir, 'zoom.png'), clip });
			await page.click('#unzoom');
			const back = await frames(page);
			const moved = back.findIndex((f, i) => f.rx !== before[i].rx ||
						       f.rw !== before[i].rw || f.hidden);
			if (moved >= 0) fail('unzoom', `"${back[moved].name}" not back in place`);
			else pass('unzoom');
		}

		// search through the prompt
		const re = new RegExp(term);
		page.once('dialog', (d) => d.accept(term));
		await page.click('#search');
		await checkSearch(page, 'search', re, before);
		await page.screenshot({ path: path.join(outDir, 'search.png'), clip });

		// ?s=TERM
		await page.goto(`${url}?s=${encodeURIComponent(term)}`, { waitUntil: 'load' });
		await checkSearch(page, 'urlsearch', re, before);
		if (errors.length) fail('errors', errors.join('; '));
	} finally {
		await browser.close();
	}
	process.exit(failed ? 1 : 0);
})().catch((e) => {
	console.log(`FAIL browser-flame:run (${e && e.message ? e.message : e})`);
	process.exit(1);
});
