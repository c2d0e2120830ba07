import { describe, expect, it } from 'vitest';
import {
  cleanFileName,
  resolveContentType,
  sizeExceededMessage,
  unsupportedTypeMessage,
} from './file-rules.ts';

describe('file rules', () => {
  it('states the size limit with two decimals in MB, as the spec writes it', () => {
    expect(sizeExceededMessage(21 * 1024 * 1024)).toBe('File size exceeds 20MB limit (21.00MB)');
    expect(sizeExceededMessage(20971521)).toBe('File size exceeds 20MB limit (20.00MB)');
    expect(unsupportedTypeMessage('application/zip')).toBe('Unsupported file type: application/zip');
  });

  it('accepts the allowed MIME types, and generic declarations by their extension', () => {
    expect(resolveContentType('application/pdf', 'a.pdf')).toBe('application/pdf');
    expect(resolveContentType('text/plain; charset=utf-8', 'a.txt')).toBe('text/plain');
    expect(resolveContentType('application/octet-stream', 'scan.JPG')).toBe('image/jpeg');
    expect(resolveContentType('', 'report.docx')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(resolveContentType('application/zip', 'a.pdf')).toBeNull();
    expect(resolveContentType('application/octet-stream', 'a.exe')).toBeNull();
  });

  it('keeps only the base name, without control characters', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\x\\notes.txt')).toBe('notes.txt');
    expect(cleanFileName('bad\u0000name\n.txt')).toBe('badname.txt');
    expect(cleanFileName('   ')).toBe('');
  });
});
