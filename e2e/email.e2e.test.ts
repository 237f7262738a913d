/**
 * Emailing documents in the built app, against a real SMTP server (smtp-server with a login) the
 * test starts: add and verify an smtp sender through the dialog (a wrong password first), compose a
 * message whose subject has a column tag, send 20 documents, and check that the server received 20
 * messages, each with its own row's PDF and its tag filled; the wizard's report, the /email-report
 * page and its CSV export (visible columns only) show them, with no serious accessibility finding.
 * Screenshots: e2e/screenshots/email-*.png.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchBrowser, newContext, ROOT, screenshot, startApp, type RunningApp } from './support/app.ts';
import { pdfText, saveDownload, tempFile, xlsx } from './support/flows.ts';
import { addTemplate, createAccount, logIn, type Account } from './support/screens.ts';
import { seriousViolations } from './support/axe.ts';

const run = promisify(execFile);
const SINK_LOGIN = { user: 'sheaf-sink', pass: 'sink-secret-42' };
const ROWS = Array.from({ length: 20 }, (_, index) => ({ name: `Person ${index + 1}`, email: `person${index + 1}@example.com` }));
const SUBJECT = (name: string) => `Your document, ${name}`;

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let account: Account;
let sink: SMTPServer;
let sinkPort: number;
const received: ParsedMail[] = [];

/** A mail server that wants a login and keeps every message it is given. */
async function startSink(): Promise<void> {
  sink = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    size: 50 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (auth.username === SINK_LOGIN.user && auth.password === SINK_LOGIN.pass) return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        simpleParser(Buffer.concat(chunks)).then((mail) => {
          received.push(mail);
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkPort = (sink.server.address() as { port: number }).port;
}

/** A template with one placeholder (the Name column) and a sheet of 20 people, made through the API. */
async function templateWithSheet(): Promise<string> {
  const id = await addTemplate(app, account, path.join(ROOT, 'fixtures/generated/corpus/classic-xref.pdf'));
  const auth = { authorization: `Bearer ${account.token}` };
  const placeholders = [{
    id: 'name', type: 'text', column: 'Name', pageNumber: 1, relativeX: 0.1, relativeY: 0.1, relativeWidth: 0.5, relativeHeight: 0.05,
    relativeFontSize: 0.02, fontFamily: 'Helvetica', fontStyle: 'normal', align: 'left', textDecoration: 'none', fill: '#000000', typeSettings: {},
  }];
  const saved = await fetch(`${app.url}/v1/templates/${id}/placeholders`, { method: 'PATCH', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ placeholders }) });
  expect(saved.status, await saved.clone().text()).toBe(200);
  const form = new FormData();
  form.append('file', new Blob([xlsx([['Name', 'Email'], ...ROWS.map((row) => [row.name, row.email])])]), 'people.xlsx');
  const sheet = await fetch(`${app.url}/v1/templates/${id}/excel`, { method: 'POST', headers: auth, body: form });
  expect(sheet.status, await sheet.clone().text()).toBe(201);
  return id;
}

beforeAll(async () => {
  await startSink();
  [app, browser] = await Promise.all([startApp({ SMTP_ALLOW_PRIVATE_HOSTS: 'true', INBOUND_SMTP_PORT: '0' }), launchBrowser()]);
  account = await createAccount(app);
  // Sending needs a paid plan; smtp senders need Enterprise (docs/email.md#sender-methods-by-plan).
  await run(process.execPath, [path.join(ROOT, 'apps/server/bin/sheaf.mjs'), 'users', 'set-plan', account.email, 'Enterprise'], { env: { ...process.env, DATA_DIR: app.dataDir } });
  context = await newContext(browser);
  page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await logIn(page, app, account);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
  await new Promise<void>((resolve) => (sink ? sink.close(() => resolve()) : resolve()));
});

const dialog = () => page.getByRole('dialog', { name: 'Add a sender' });
const field = (name: string) => dialog().getByRole('textbox', { name });

describe('emailing documents in the browser', { timeout: 240_000 }, () => {
  it('adds an smtp sender and verifies it against the mail server, after a wrong password', async () => {
    onTestFailed(async () => void (await screenshot(page, 'email-failure')));
    await page.goto(`${app.url}/senders`);
    await page.getByRole('heading', { name: 'No senders yet' }).waitFor();
    await page.getByRole('button', { name: 'Add sender' }).first().click();
    await dialog().getByRole('radio', { name: /Your SMTP server/ }).check();
    await dialog().getByRole('button', { name: 'Next' }).click();
    // Nothing filled in: each field says what it needs; the port has its default.
    expect(await field('Port').inputValue()).toBe('465');
    await dialog().getByRole('button', { name: 'Add sender' }).click();
    await dialog().getByText('Please enter an email address').waitFor();
    await dialog().getByText('Enter a valid server name or IP address.').waitFor();

    await field('Email address').fill('ada@example.com');
    await field('SMTP server').fill('127.0.0.1');
    await field('Port').fill(String(sinkPort));
    await field('User name').fill(SINK_LOGIN.user);
    await field('Password').fill('not-the-password');
    await dialog().getByRole('button', { name: 'Add sender' }).click();
    // The server's own reply is shown (docs/email.md#smtp-senders).
    await dialog().getByTestId('smtp-error').getByText(/535 Authentication credentials invalid/).waitFor();
    await screenshot(page, 'email-1-smtp-refused');

    await dialog().getByRole('button', { name: 'Edit' }).click();
    await field('Password').fill(SINK_LOGIN.pass);
    await dialog().getByRole('button', { name: 'Save and test' }).click();
    await dialog().getByText('The connection works: ada@example.com is verified.').waitFor();
    await dialog().getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });
    const row = page.getByTestId('sender-row').filter({ hasText: 'ada@example.com' });
    await row.getByText('Verified').waitFor();
    await screenshot(page, 'email-2-senders');
  });

  it('composes a message with a column tag in the subject and sends 20 documents', async () => {
    onTestFailed(async () => void (await screenshot(page, 'email-failure')));
    const id = await templateWithSheet();
    await page.goto(`${app.url}/wizard/${id}`);
    const bar = page.getByRole('navigation', { name: 'Wizard navigation' });
    await bar.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('toolbar', { name: 'Editor tools' }).waitFor({ timeout: 60_000 });
    await bar.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Spreadsheet', level: 1 }).waitFor();
    await bar.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Generate documents' }).waitFor();

    const email = page.getByTestId('email-options');
    await email.getByRole('switch', { name: 'Send by email' }).check();
    await email.getByTestId('sender-picker').click();
    await page.getByRole('option', { name: /ada@example\.com/ }).click();
    await email.getByTestId('email-subject').fill('Your document, ');
    await email.getByRole('button', { name: 'Insert a column tag into: Subject' }).click();
    await page.getByRole('menuitem', { name: '{{Name}}' }).click();
    await expect.poll(() => email.getByTestId('email-subject').inputValue()).toBe('Your document, {{Name}}');
    // The message, typed and with a tag from the editor's menu.
    await email.getByTestId('email-content').click();
    await page.keyboard.type('Dear ');
    await email.getByRole('button', { name: 'Insert a column tag into: Message' }).click();
    await page.getByRole('menuitem', { name: '{{Name}}' }).click();
    await page.keyboard.type(', your document is attached.');
    await email.getByTestId('email-recipientsColumn').click();
    await page.getByRole('option', { name: 'Email', exact: true }).click();
    await email.getByTestId('recipients-check').getByText('20 valid recipient addresses').waitFor();
    await screenshot(page, 'email-3-compose');

    await page.getByRole('button', { name: 'Send to 20 recipients' }).click();
    const view = page.getByTestId('mailing-view');
    await view.waitFor();
    // The report poller asks every 10 s until every message has its status.
    await view.getByTestId('mailing-completed').waitFor({ timeout: 150_000 });
    await expect.poll(() => view.getByTestId('tile-total').textContent()).toContain('20');
    await expect.poll(() => view.getByTestId('tile-accepted').textContent()).toContain('20');
    expect(await view.getByRole('grid').getAttribute('aria-rowcount')).toBe('21');
    // Subjects with their tag filled (the grid renders the rows in view).
    await view.getByRole('gridcell', { name: /^Your document, Person \d+$/ }).first().waitFor();
    await screenshot(page, 'email-4-wizard-report');
    // Accessible with its status chips (the Accepted chip was 3.85:1): no serious or critical axe finding.
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('delivered 20 messages to the mail server, each with its own row\'s PDF and its subject filled', async () => {
    expect(received).toHaveLength(20);
    const byRecipient = new Map(received.map((mail) => [(Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address, mail]));
    for (const row of ROWS) {
      const mail = byRecipient.get(row.email);
      expect(mail, row.email).toBeDefined();
      expect(mail!.subject).toBe(SUBJECT(row.name));
      expect(mail!.from?.value[0]?.address).toBe('ada@example.com');
      expect(mail!.html || mail!.text).toContain(`Dear ${row.name}, your document is attached.`);
      const pdfs = mail!.attachments.filter((file) => file.contentType === 'application/pdf');
      expect(pdfs, row.email).toHaveLength(1);
      const text = await pdfText(await tempFile('attached.pdf', pdfs[0]!.content));
      // "Person 1" is also the start of "Person 10": compare whole names.
      expect(text.match(/Person \d+/g), row.email).toContain(row.name);
      expect(text.match(/Person \d+/g)?.every((name) => name === row.name), row.email).toBe(true);
    }
  });

  it('lists the messages on the email report page and exports the visible columns as CSV', async () => {
    onTestFailed(async () => void (await screenshot(page, 'email-failure')));
    await page.goto(`${app.url}/email-report`);
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.waitFor();
    await expect.poll(() => grid.getAttribute('aria-rowcount')).toBe('21');
    await expect.poll(() => page.getByTestId('tile-total').textContent()).toContain('20');
    await screenshot(page, 'email-5-report');
    expect(await seriousViolations(page)).toEqual([]);

    // A filter narrows the table, and the export, to what is shown.
    await page.getByRole('textbox', { name: 'Recipient contains' }).fill('person2');
    await expect.poll(() => grid.getAttribute('aria-rowcount')).toBe('3'); // person2, person20
    const [filtered] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const filteredLines = (await readFile(await saveDownload(filtered), 'utf8')).replace(/^\ufeff/, '').trim().split(/\r\n/);
    expect(filteredLines).toHaveLength(3);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => grid.getAttribute('aria-rowcount')).toBe('21');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^email-report-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile(await saveDownload(download), 'utf8')).replace(/^\ufeff/, '').trim().split(/\r\n/);
    // The hidden messageId column is not exported.
    expect(lines[0]).toBe('Recipient,Subject,Status,Date and time');
    expect(lines).toHaveLength(21);
    for (const row of ROWS) {
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${row.email.replaceAll('.', '\\.')},"${SUBJECT(row.name)}",Accepted,\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$`)));
    }

    // The history of one message: queued, then accepted with the server's reply.
    // The grid renders only the rows in view: filter to the one to open.
    await page.getByRole('textbox', { name: 'Recipient contains' }).fill('person7@');
    await grid.getByRole('gridcell', { name: 'person7@example.com', exact: true }).click();
    const history = page.getByRole('dialog', { name: 'Message history' });
    await history.getByRole('gridcell', { name: 'Accepted', exact: true }).first().waitFor();
    await history.getByRole('gridcell', { name: 'Queued', exact: true }).first().waitFor();
    await history.getByRole('gridcell', { name: /^250 / }).waitFor();
    await screenshot(page, 'email-6-history');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
