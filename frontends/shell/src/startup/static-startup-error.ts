// The startup error screen without React, for when the app's own code could not load at all.
import { errorDetails } from './startup-errors.ts';

export function renderStaticStartupError(error: unknown, doc: Document = document): void {
  const root = doc.getElementById('root') ?? doc.body;
  const main = doc.createElement('main');
  main.className = 'kb-startup-error';
  main.setAttribute('role', 'alert');
  const card = doc.createElement('div');
  card.className = 'kb-frame kb-startup-error__card';
  const h1 = doc.createElement('h1');
  h1.textContent = 'Initialization Error';
  const p = doc.createElement('p');
  p.textContent = 'Something went wrong during startup. Attempting recovery...';
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'kb-button kb-button--lg';
  button.textContent = 'Reload Application';
  button.addEventListener('click', () => doc.defaultView?.location.reload());
  const details = doc.createElement('details');
  const summary = doc.createElement('summary');
  summary.textContent = 'Error details';
  const pre = doc.createElement('pre');
  pre.textContent = errorDetails(error);
  details.append(summary, pre);
  card.append(h1, p, button, details);
  main.append(card);
  root.replaceChildren(main);
}
