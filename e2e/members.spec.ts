import { expect, test, deskForFile } from './desk';

const desk = deskForFile();

test('invite a teammate, accept the invite with their name, mark them away: the API reads the same', async ({ page }) => {
  await page.goto(desk.openUrl);
  await expect(page).not.toHaveURL(/token=/);
  await page.goto(`${desk.baseUrl}/settings/members`);
  const section = page.locator('section#members');
  await expect(section.getByRole('heading', { level: 2, name: 'Members' })).toBeVisible();

  await section.getByLabel('Email').fill('ada@example.com');
  await section.getByLabel('Role').selectOption('editor');
  await section.getByRole('button', { name: 'Invite' }).click();
  const invite = section.getByRole('list', { name: 'Pending invites' }).getByRole('listitem', { name: 'Invite for ada@example.com' });
  await expect(invite).toBeVisible();

  await invite.getByLabel('Name for ada@example.com').fill('Ada Lovelace');
  await invite.getByRole('button', { name: 'Accept' }).click();
  const ada = section.getByRole('list', { name: 'Members' }).getByRole('listitem', { name: 'Ada Lovelace' });
  await expect(ada).toBeVisible();
  await expect(section.getByText('No pending invites.')).toBeVisible();

  const available = ada.getByRole('switch', { name: 'Ada Lovelace available to review' });
  await expect(available).toBeChecked();
  await available.click();
  await expect(ada.getByText('Away')).toBeVisible();
  await expect(available).not.toBeChecked();

  const members = (await desk.api<{ members: { name: string; email: string; role: string; availability: string }[]; invites: unknown[] }>('GET', '/api/v1/workspace/members')).body;
  expect(members.invites).toEqual([]);
  expect(members.members.find((m) => m.name === 'Ada Lovelace')).toMatchObject({ email: 'ada@example.com', role: 'editor', availability: 'away' });
  // the owner has no remove button
  await expect(section.getByRole('list', { name: 'Members' }).getByRole('listitem', { name: 'Owner' }).getByRole('button', { name: 'Remove' })).toHaveCount(0);
});
