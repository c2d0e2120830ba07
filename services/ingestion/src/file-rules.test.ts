import { describe, expect, it } from 'vitest';
import {
  cleanFileName,
  resolveContentType,
  sizeExceededMessage,
  sniffContentType,
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

describe('content sniffing', () => {
  it('names the type the bytes show, not the one claimed', () => {
    expect(sniffContentType(Buffer.from('%PDF-1.7\n'), 'text/plain')).toBe('application/pdf');
    expect(sniffContentType(Buffer.from('89504e470d0a1a0a0000', 'hex'), 'application/pdf')).toBe('image/png');
    expect(sniffContentType(Buffer.from('ffd8ffe000', 'hex'), 'image/png')).toBe('image/jpeg');
    expect(sniffContentType(Buffer.from('  <!DOCTYPE html><p>x'), 'text/html')).toBe('text/html');
    expect(sniffContentType(Buffer.from('<!DOCTYPE html><p>x'), 'text/plain')).toBe('text/plain');
    expect(sniffContentType(Buffer.from('plain words'), 'text/plain')).toBe('text/plain');
    expect(sniffContentType(Buffer.from([1, 0, 2]), 'text/plain')).toBe('application/octet-stream');
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect(sniffContentType(Buffer.from('504b0304', 'hex'), docx)).toBe(docx);
    expect(sniffContentType(Buffer.from('504b0304', 'hex'), 'text/plain')).toBe('application/octet-stream');
  });
});
