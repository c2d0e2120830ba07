// The Content-Disposition header: plain names as they are, every other name with a safe fallback.
import { describe, expect, it } from 'vitest';
import { parse } from 'content-disposition';
import { contentDisposition } from './content-disposition.ts';

describe('contentDisposition', () => {
  it('sends a plain name as it is', () => {
    expect(contentDisposition('attachment', 'report.pdf')).toBe('attachment; filename=report.pdf');
    expect(contentDisposition('inline', 'blue bowl.png')).toBe('inline; filename="blue bowl.png"');
  });

  it('cannot be broken by quotes, line breaks or non-ASCII names, and keeps the exact name', () => {
    const name = 'a"b\r\nSet-Cookie: x=1;é.png';
    const h = contentDisposition('inline', name);
    expect(h).not.toMatch(/[\r\n]/);
    expect(h).toBe(
      `inline; filename="a_b__Set-Cookie: x=1;_.png"; filename*=UTF-8''a%22b%0D%0ASet-Cookie%3A%20x%3D1%3B%C3%A9.png`,
    );
    expect(parse(h).parameters.filename).toBe(name);
  });

  it('never lets a browser percent-decode or path-split the fallback', () => {
    const h = contentDisposition('attachment', '..%2F..%2Fetc/passwd');
    expect(h).toMatch(/^attachment; filename=\.\._2F\.\._2Fetc_passwd; filename\*=/);
    expect(parse(h).parameters.filename).toBe('..%2F..%2Fetc/passwd');
  });

  it('names an empty name "download"', () => {
    expect(contentDisposition('attachment', '   ')).toBe('attachment; filename=download');
  });
});
