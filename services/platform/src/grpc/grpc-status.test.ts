import { describe, expect, it } from 'vitest';
import { Metadata, status as Status } from '@grpc/grpc-js';
import { DomainError, InputError, NotFoundError, UnavailableError } from '../errors.ts';
import { ERROR_CLASS_KEY, fromGrpcStatus, GrpcStatusError, toGrpcStatus } from './grpc-status.ts';

class GoneError extends DomainError {
  readonly status = 410;
}
class HiddenInputError extends InputError {
  override readonly expose = false;
}

describe('toGrpcStatus', () => {
  it('keeps the message of exposed client errors and hides everything else', () => {
    expect(toGrpcStatus(new NotFoundError('Document d1 not found'))).toMatchObject({
      code: Status.NOT_FOUND,
      details: 'Document d1 not found',
      fault: false,
    });
    expect(toGrpcStatus(new HiddenInputError('column "x" of relation "y"'))).toMatchObject({
      code: Status.INVALID_ARGUMENT,
      details: 'Internal server error',
    });
    expect(toGrpcStatus(new UnavailableError('kafka at 10.1.2.3 down'))).toMatchObject({
      code: Status.UNAVAILABLE,
      details: 'Service temporarily unavailable',
      fault: false,
    });
    // A domain error with a status the table does not know is our fault: INTERNAL.
    expect(toGrpcStatus(new GoneError('gone'))).toMatchObject({ code: Status.INTERNAL, fault: true });
    expect(toGrpcStatus('a string')).toMatchObject({
      code: Status.INTERNAL,
      details: 'Internal server error',
    });
    expect(toGrpcStatus({ code: Status.UNKNOWN, details: 'stack trace here' })).toMatchObject({
      code: Status.UNKNOWN,
      details: 'Internal server error',
      fault: true,
    });
    // Node system errors have string codes: not a gRPC status.
    expect(
      toGrpcStatus(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    ).toMatchObject({
      code: Status.INTERNAL,
    });
  });
});

describe('fromGrpcStatus', () => {
  it('prefers the class a Kaboodle server named over the code', () => {
    const metadata = new Metadata();
    metadata.set(ERROR_CLASS_KEY, 'NotFoundError');
    const err = fromGrpcStatus('/a.v1.A/B', { code: Status.NOT_FOUND, details: 'gone', metadata });
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe('gone');
  });

  it('maps codes from foreign servers, and leaves the rest as GrpcStatusError', () => {
    expect(fromGrpcStatus('/a.v1.A/B', { code: Status.FAILED_PRECONDITION, details: 'x' }).name).toBe(
      'ConflictError',
    );
    expect(fromGrpcStatus('/a.v1.A/B', { code: Status.UNAVAILABLE, details: 'no route' }).message).toBe(
      'calling /a.v1.A/B: no route',
    );
    const other = fromGrpcStatus('/a.v1.A/B', { code: Status.UNIMPLEMENTED, details: 'Method not found' });
    expect(other).toBeInstanceOf(GrpcStatusError);
    expect(other.message).toBe('calling /a.v1.A/B: UNIMPLEMENTED: Method not found');
  });
});
