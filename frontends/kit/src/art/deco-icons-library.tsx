// DecoIcon's drawings for the library and inventory: scrolls, tags, crates, cameras, galleries...
// (24×24, stroked in currentColor).
import type { ReactElement } from 'react';

export const LIBRARY_ICONS = {
  scroll: (
    <>
      <path d="M6 4h11a3 3 0 0 1 0 6H8" />
      <path d="M6 4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V10" />
      <path d="M8 13h7M8 16h5" />
    </>
  ),
  eye: (
    <>
      <path d="M2 12s3.6-6 10-6 10 6 10 6-3.6 6-10 6S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
    </>
  ),
  quill: (
    <>
      <path d="M20 4c-7 1-11 6-13 13" />
      <path d="M20 4c-1 6-5 10-11 11" />
      <path d="M4 20l3-3" />
    </>
  ),
  tag: (
    <>
      <path d="M3 12V4h8l10 10-8 8L3 12Z" />
      <circle cx="7.5" cy="8" r="1.5" />
    </>
  ),
  layers: (
    <>
      <path d="M12 3 2 8l10 5 10-5-10-5Z" />
      <path d="m2 13 10 5 10-5" />
      <path d="m2 17.5 10 5 10-5" opacity="0.6" />
    </>
  ),
  crate: (
    <>
      <path d="M3 8 12 3l9 5v8l-9 5-9-5V8Z" />
      <path d="m3 8 9 5 9-5M12 13v8" />
      <path d="m7.5 5.5 9 5" />
    </>
  ),
  camera: (
    <>
      <path d="M3 8h4l2-3h6l2 3h4v11H3V8Z" />
      <circle cx="12" cy="13" r="3.5" />
    </>
  ),
  pen: (
    <>
      <path d="M4 20l4-1 11-11-3-3L5 16l-1 4Z" />
      <path d="m14 7 3 3" />
    </>
  ),
  barcode: <path d="M4 5v14M7 5v14M9.5 5v14M13 5v14M15 5v14M18 5v14M20 5v14" />,
  gallery: (
    <>
      <rect x="3" y="3" width="8" height="10" rx="1" />
      <rect x="13" y="3" width="8" height="6" rx="1" />
      <rect x="3" y="15" width="8" height="6" rx="1" />
      <rect x="13" y="11" width="8" height="10" rx="1" />
    </>
  ),
  compass: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="m15.5 8.5-2 5-5 2 2-5 5-2Z" />
    </>
  ),
  constellation: (
    <>
      <circle cx="5" cy="6" r="1.6" />
      <circle cx="18" cy="5" r="1.6" />
      <circle cx="12" cy="12" r="1.6" />
      <circle cx="6" cy="19" r="1.6" />
      <circle cx="19" cy="17" r="1.6" />
      <path d="m6.3 7 4.5 4M16.8 6.1l-3.7 4.7M10.8 13.2 7 17.8M13.4 12.8l4.3 3.4" />
    </>
  ),
} satisfies Record<string, ReactElement>;
