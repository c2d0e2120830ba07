// A picture that is refused (damaged, too many pixels, took too long): the person's problem to fix,
// reported with a reason, never a server fault.
export class ImageRejectedError extends Error {
  override readonly name = 'ImageRejectedError';
}
