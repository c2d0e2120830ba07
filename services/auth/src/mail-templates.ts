// The words of the account e-mail Kaboodle sends, as plain text and simple HTML (every value that
// came from a person is escaped).

const escape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function html(paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p>${escape(p)}</p>`);
  if (action) body.splice(1, 0, `<p><a href="${escape(action.url)}">${escape(action.label)}</a></p>`);
  return `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">${body.join('')}</body></html>`;
}

export function verificationMail(v: { name: string; url: string; change: boolean }) {
  const intro = v.change
    ? `Hello ${v.name}, please confirm that this is the new address of your Kaboodle account.`
    : `Hello ${v.name}, welcome to Kaboodle! Please confirm your email address.`;
  const after = v.change
    ? 'Your sign-in address changes when you open the link. It works once, within 24 hours.'
    : 'The link works once, within 24 hours.';
  const ignore = 'If you did not ask for this, ignore this message.';
  return {
    subject: v.change ? 'Confirm your new Kaboodle email address' : 'Verify your Kaboodle email address',
    text: `${intro}\n\nOpen this link to verify it:\n${v.url}\n\n${after}\n${ignore}\n`,
    html: html([intro, after, ignore], { label: 'Verify my email address', url: v.url }),
  };
}

export function passwordResetMail(v: { name: string; url: string }) {
  const intro = `Hello ${v.name}, someone (hopefully you) asked to reset the password of your Kaboodle account.`;
  const after =
    'The link works once, within 30 minutes. Setting a new password signs you out on every device.';
  const ignore = 'If you did not ask for this, ignore this message: your password stays as it is.';
  return {
    subject: 'Reset your Kaboodle password',
    text: `${intro}\n\nOpen this link to choose a new password:\n${v.url}\n\n${after}\n${ignore}\n`,
    html: html([intro, after, ignore], { label: 'Choose a new password', url: v.url }),
  };
}

export function emailChangedNotice(v: { name: string; newEmail: string }) {
  const intro = `Hello ${v.name}, the sign-in address of your Kaboodle account is now ${v.newEmail}.`;
  const after =
    'If you did not make this change, tell your administrator at once: someone may know your password.';
  return {
    subject: 'Your Kaboodle email address was changed',
    text: `${intro}\n\n${after}\n`,
    html: html([intro, after]),
  };
}
