import { expect, test, deskForFile } from './desk';

/**
 * Settings › Integrations, inbound side: a source's scoped ingest URL (created in the UI, used by a
 * sender, attributed to its source), then a token rotation that breaks the old webhook URL and
 * keeps the UI signed in.
 */

const desk = deskForFile();

const push = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('a scoped ingest URL pushes to its source only; rotating the token breaks the old webhook URL and keeps the UI signed in', async ({ page }) => {
  const source = (await desk.api<{ id: string }>('POST', '/api/v1/sources', { type: 'manual', label: 'Zapier' })).body;
  await page.goto(desk.openUrl);
  await expect(page).not.toHaveURL(/token=/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Integrations' }).click();
  const integrations = page.getByRole('region', { name: 'Integrations' });
  await expect(integrations.getByText('A leaked source URL can only push signals to that source; revoke it any time.').first()).toBeVisible();

  // ---- scoped ingest URL: pick the source, create, copy the URL shown once, push through it
  await integrations.getByLabel('Source', { exact: true }).selectOption({ label: 'Zapier' });
  const group = integrations.getByRole('group', { name: 'Ingest URLs for Zapier' });
  await group.getByLabel('Used by').fill('Zap: reviews');
  await group.getByRole('button', { name: 'Create ingest URL' }).click();
  const scopedField = group.getByRole('textbox', { name: 'New ingest URL' });
  await expect(scopedField).toHaveValue(new RegExp(`^${desk.baseUrl}/api/webhooks/signals/dski_`));
  const scopedUrl = await scopedField.inputValue();
  await expect(group.getByRole('listitem').filter({ hasText: 'Zap: reviews' })).toBeVisible();
  const pushed = await push(scopedUrl, { title: 'New 2-star review' });
  expect(pushed.status).toBe(201);
  const bySource = await desk.api<{ signals: { title: string; sourceId: string }[] }>('GET', `/api/v1/signals?sourceId=${source.id}`);
  expect(bySource.body.signals.map((s) => s.title)).toEqual(['New 2-star review']);
  // it never opens the bearer API
  const scopedToken = scopedUrl.split('/').pop()!;
  expect((await fetch(`${desk.baseUrl}/api/v1/workspace`, { headers: { authorization: `Bearer ${scopedToken}` } })).status).toBe(401);

  // ---- rotation: confirm says what breaks; then the new URL is shown and the UI stays signed in
  const oldUrl = `${desk.baseUrl}/api/webhooks/signals/${desk.token}`;
  const localField = integrations.getByRole('textbox', { name: 'Local webhook URL' });
  await integrations.getByRole('button', { name: 'Show' }).click();
  await expect(localField).toHaveValue(oldUrl);
  await integrations.getByRole('button', { name: 'Rotate token' }).click();
  const confirm = integrations.getByRole('group', { name: /Rotate the workspace token\?/ });
  await expect(confirm).toContainText('stop working at once');
  await confirm.getByRole('button', { name: 'Rotate now' }).click();
  await expect(integrations.getByText(/Token rotated/)).toBeVisible();
  await expect(localField).not.toHaveValue(oldUrl);
  const newUrl = await localField.inputValue();
  const newToken = newUrl.split('/').pop()!;
  expect(newToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

  expect((await push(oldUrl, { title: 'old URL' })).status).toBe(404);
  expect((await fetch(`${desk.baseUrl}/api/v1/workspace`, { headers: { authorization: `Bearer ${desk.token}` } })).status).toBe(401);
  expect((await push(newUrl, { title: 'Through the new URL' })).status).toBe(201);
  expect((await push(scopedUrl, { title: 'Scoped URL still works' })).status).toBe(201);

  // still signed in: other pages load with the new token, and so does a reload of this tab
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Signals' }).click();
  await expect(page.getByText('Through the new URL').first()).toBeVisible({ timeout: 20_000 });
  await page.reload();
  await expect(page.getByText('Scoped URL still works').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { name: /sign in/i })).toHaveCount(0);
});
