// A minimal ONNX model writer: the protobuf messages (onnx.proto3) needed to describe a graph of
// standard operators with float/int64 initialisers, encoded by hand so that building a model at
// run time needs no protobuf library. Field numbers are those of onnx/onnx.proto.

const Wire = { Varint: 0, Bytes: 2, Fixed32: 5 } as const;
type Wire = (typeof Wire)[keyof typeof Wire];

/** ONNX TensorProto.DataType values used here. */
export const OnnxType = { FLOAT: 1, INT32: 6, INT64: 7 } as const;
export type OnnxElemType = (typeof OnnxType)[keyof typeof OnnxType];

class ProtoWriter {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  private varint(value: bigint | number): void {
    // int64 fields are two's complement: a negative number takes ten bytes.
    let v = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    out.push(Number(v));
    this.push(Uint8Array.from(out));
  }

  private tag(field: number, wire: Wire): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, value: number | bigint): this {
    this.tag(field, Wire.Varint);
    this.varint(value);
    return this;
  }

  float(field: number, value: number): this {
    this.tag(field, Wire.Fixed32);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, Wire.Bytes);
    this.varint(value.length);
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  /**
   * A nested message by reference to its parts: only `finish` copies bytes, once. Copying each
   * message as it closed copied a model's weights three times over (~80 MB held for USE-lite).
   */
  message(field: number, body: ProtoWriter): this {
    this.tag(field, Wire.Bytes);
    this.varint(body.size);
    for (const p of body.parts) this.push(p);
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

export type OnnxAttribute = number | number[] | { float: number } | { floats: number[] };

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, OnnxAttribute>;
}

export interface OnnxInitializer {
  name: string;
  dims: readonly number[];
  data: Float32Array | BigInt64Array;
}

export interface OnnxValueInfo {
  name: string;
  type: OnnxElemType;
  /** A number is a fixed size; a string names a dynamic dimension. */
  dims: readonly (number | string)[];
}

export interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  initializers: OnnxInitializer[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
  opset: number;
}

function attribute(name: string, value: OnnxAttribute): ProtoWriter {
  // AttributeProto: name 1, f 2, i 3, floats 7, ints 8, type 20 (FLOAT 1, INT 2, FLOATS 6, INTS 7).
  const a = new ProtoWriter().string(1, name);
  if (typeof value === 'number') return a.int(3, value).int(20, 2);
  if (Array.isArray(value)) {
    for (const v of value) a.int(8, v);
    return a.int(20, 7);
  }
  if ('float' in value) return a.float(2, value.float).int(20, 1);
  for (const v of value.floats) a.float(7, v);
  return a.int(20, 6);
}

function valueInfo(v: OnnxValueInfo): ProtoWriter {
  // ValueInfoProto{name 1, type 2}; TypeProto{tensor_type 1}; Tensor{elem_type 1, shape 2};
  // TensorShapeProto{dim 1}; Dimension{dim_value 1, dim_param 2}.
  const shape = new ProtoWriter();
  for (const d of v.dims)
    shape.message(1, typeof d === 'number' ? new ProtoWriter().int(1, d) : new ProtoWriter().string(2, d));
  const tensor = new ProtoWriter().int(1, v.type).message(2, shape);
  return new ProtoWriter().string(1, v.name).message(2, new ProtoWriter().message(1, tensor));
}

function initializer(t: OnnxInitializer): ProtoWriter {
  // TensorProto: dims 1, data_type 2, name 8, raw_data 9 (little-endian, as on x64 and arm64).
  const w = new ProtoWriter();
  for (const d of t.dims) w.int(1, d);
  w.int(2, t.data instanceof Float32Array ? OnnxType.FLOAT : OnnxType.INT64);
  w.string(8, t.name);
  return w.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
}

/** The serialised ModelProto (IR version 8) of a graph in the default ONNX domain. */
export function encodeOnnxModel(g: OnnxGraph): Uint8Array {
  const graph = new ProtoWriter();
  g.nodes.forEach((n, i) => {
    // NodeProto: input 1, output 2, name 3, op_type 4, attribute 5.
    const node = new ProtoWriter();
    for (const x of n.inputs) node.string(1, x);
    for (const x of n.outputs) node.string(2, x);
    node.string(3, `${n.op}_${i}`).string(4, n.op);
    for (const [k, v] of Object.entries(n.attributes ?? {})) node.message(5, attribute(k, v));
    graph.message(1, node);
  });
  graph.string(2, g.name);
  for (const t of g.initializers) graph.message(5, initializer(t));
  for (const v of g.inputs) graph.message(11, valueInfo(v));
  for (const v of g.outputs) graph.message(12, valueInfo(v));
  // ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8 (OperatorSetIdProto{domain 1, version 2}).
  return new ProtoWriter()
    .int(1, 8)
    .string(2, 'kaboodle')
    .message(7, graph)
    .message(8, new ProtoWriter().string(1, '').int(2, g.opset))
    .finish();
}
