#!/usr/bin/env node
// tests/browser/speedscope.js - a dirscript --speedscope file in the real speedscope
// app (the speedscope npm package's release build) in headless Chromium.
//
//   node speedscope.js JSON OUTDIR
//
// The app and the file are served from 127.0.0.1 (the app fetches #profileURL=, which
// file:// URLs cannot give it).  Checks, "PASS name" or "FAIL name (why)" each, exit 1
// on any FAIL:
//   schema   the file validates against the app's own file-format-schema.json (ajv)
//   load     the app imports it with no page error and no console error, and names
//            the first profile and the number of profiles ("NAME (1/N)")
//   sandwich the sandwich view (key 3) lists the first profile's frames with the
//            total and self weights the file gives them (computed here from its
//            samples and weights: a frame counts once per sample however often it
//            is on the stack); the app writes weights of 1000 and more with
//            thousands separators ("1,616 (39%)")
// With a third argument NAME, the checks are named browser-speedscope:CHECK:NAME, the
// screenshot is OUTDIR/NAME-speedscope.png, and the sandwich must show a weight of
// 1000 or more (the caller's profile is made so).
// The screenshot of the sandwich view goes to OUTDIR/speedscope.png.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const puppeteer = require('puppeteer-core');
const Ajv = require('ajv');

const [jsonPath, outDir, tag] = process.argv.slice(2);
const app = path.join(__dirname, 'node_modules', 'speedscope', 'dist', 'release');
const sfx = tag ? `:${tag}` : '';
let failed = 0;
const pass = (n, note) => console.log(`PASS browser-speedscope:${n}${sfx}${note ? ` (${note})` : ''}`);
const fail = (n, why) => { failed++; console.log(`FAIL browser-speedscope:${n}${sfx} (${why})`); };
// a weight as the app shows it: "1,616 (39%)" -> 1616; null if not one
const WEIGHT = /^(\d{1,3}(?:,\d{3})*) \(/;
const weight = (s) => { const m = WEIGHT.exec(s); return m ? +m[1].replace(/,/g, '') : null; };

const doc = JSON.parse(fs.readFileSync(jsonPath, 'utf8'));
const schema = JSON.parse(fs.readFileSync(path.join(app, 'file-format-schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
if (validate(doc)) pass('schema');
else fail('schema', JSON.stringify(validate.errors).slice(0, 300));

// name -> [total, self] of the first profile
const want = new Map();
const prof = doc.profiles[0];
prof.samples.forEach((st, i) => {
	const w = prof.weights[i];
	const names = st.map((f) => doc.shared.frames[f].name);
	for (const n of new Set(names)) {
		const e = want.get(n) || [0, 0];
		e[0] += w;
		want.set(n, e);
	}
	if (names.length) want.get(names[names.length - 1])[1] += w;
});

const server = http.createServer((req, res) => {
	const u = decodeURIComponent(req.url.split(/[?#]/)[0]);
	const file = u === '/profile.json' ? jsonPath : path.join(app, path.normalize(u));
	fs.readFile(file, (e, data) => {
		res.writeHead(e ? 404 : 200);
		res.end(e ? '' : data);
	});
});

server.listen(0, '127.0.0.1', async () => {
	const base = `http://127.0.0.1:${server.address().port}`;
	const browser = await puppeteer.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		headless: true,
		args: ['--no-sandbox', '--disable-dev-shm-usage', '--enable-unsafe-swiftshader'],
	});
	try {
		const page = await browser.newPage();
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
		await page.setViewport({ width: 1200, height: 900 });
		await page.goto(`${base}/index.html#profileURL=${encodeURIComponent(`${base}/profile.json`)}`,
				{ waitUntil: 'load' });
		// the app numbers the profiles only when there are several
		const label = doc.profiles.length > 1 ? `${prof.name} (1/${doc.profiles.length})` : prof.name;
		const shown = await page.waitForFunction((l) => document.body.innerText.includes(l),
			{ timeout: 15000 }, label).then(() => true, () => false);
		if (errors.length) fail('load', errors.join('; ').slice(0, 300));
		else if (!shown) fail('load', `"${label}" not shown`);
		else pass('load', label);

		await page.keyboard.press('3');
		// the table's header comes first, its rows a frame or more later: wait for a
		// row (reading at the header alone saw none, now and then)
		await page.waitForFunction(() => {
			const t = document.body.innerText, i = t.indexOf('Symbol Name');
			return i >= 0 && /\n\s*\d[\d,]* \(/.test(t.slice(i));
		}, { timeout: 10000 }).catch(() => {});
		const text = await page.evaluate(() => document.body.innerText);
		const rows = text.slice(text.indexOf('Symbol Name') + 11).split('\n')
			.map((l) => l.trim()).filter((l) => l);
		let seen = 0, big = 0, bad = null;
		for (let i = 0; i + 2 < rows.length; i += 3) {
			const t = weight(rows[i]), s = weight(rows[i + 1]);
			if (t === null || s === null) break;
			const e = want.get(rows[i + 2]);
			if (!e || e[0] !== t || e[1] !== s) {
				bad = `${rows[i + 2]}: ${rows[i]} / ${rows[i + 1]}, file ${e ? e.join('/') : 'none'}`;
				break;
			}
			big += t >= 1000;
			seen++;
		}
		if (errors.length) fail('sandwich', errors.join('; ').slice(0, 300));
		else if (bad) fail('sandwich', bad);
		else if (seen < Math.min(want.size, 5)) fail('sandwich', `${seen} rows shown`);
		else if (tag && !big) fail('sandwich', 'no weight of 1000 or more shown (thousands separators not read)');
		else pass('sandwich', `${seen} of ${want.size} frames shown, weights agree` +
			  (big ? `, ${big} of them over 999` : ''));
		await page.screenshot({ path: path.join(outDir, `${tag ? `${tag}-` : ''}speedscope.png`) });
	} finally {
		await browser.close();
		server.close();
	}
	process.exit(failed ? 1 : 0);
}).on('error', (e) => {
	console.log(`FAIL browser-speedscope:run${sfx} (${e.message})`);
	process.exit(1);
});
