#!/usr/bin/env node
// tests/browser/open-time.js - how long a flame graph takes to open in headless
// Chromium: from navigation start to the end of the load event (the SVG parsed,
// laid out and its script's init() run), then one paint.  Prints
// "open SVG: N ms (runs: A B C)", the median of RUNS (default 3) fresh pages.
//
//   node open-time.js SVG [RUNS]
'use strict';
const path = require('path');
const { pathToFileURL } = require('url');
const puppeteer = require('puppeteer-core');

const [svg, runsArg] = process.argv.slice(2);
const runs = +(runsArg || 3);
(async () => {
	const browser = await puppeteer.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'],
	});
	const times = [];
	for (let i = 0; i < runs; i++) {
		const page = await browser.newPage();
		await page.setViewport({ width: 1200, height: 900 });
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		const t0 = Date.now();
		await page.goto(pathToFileURL(path.resolve(svg)).href, { waitUntil: 'load', timeout: 60000 });
		await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
		times.push(Date.now() - t0);
		if (errors.length) { console.log(`error: ${errors.join('; ')}`); process.exit(1); }
		await page.close();
	}
	await browser.close();
	const sorted = [...times].sort((a, b) => a - b);
	console.log(`open ${svg}: ${sorted[Math.floor(runs / 2)]} ms (runs: ${times.join(' ')})`);
})().catch((e) => { console.log(`error: ${e.message}`); process.exit(1); });
