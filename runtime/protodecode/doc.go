// Package protodecode holds what the protobuf decoders informer-gen
// generates (--proto-decoders; zz_generated.protodecoders.go beside each
// version's informers) share: a Decoder of the protobuf wire format as
// go-to-protobuf's generated Unmarshal methods read it (k8s.io/api's
// generated.pb.go), the decoding of scalar, repeated, map and message
// fields, and the decoders of the meta/v1 types every object holds. A
// generated decoder decodes exactly as the type's Unmarshal does, and
// interns the strings it decodes in a compact.Table as it goes, so that
// no string already canonical is allocated.
//
// # Data flow
//
//	protobuf bytes --> Unmarshal --> Decode: pooled Decoder (sticky error)
//	                      |             --> generated unmarshalKIND: for d.Next() { switch d.Field() }
//	                      |                  --> String/Int/Bool/... (strings interned: Table.InternBytes)
//	                      |                  --> Message/OptMessage/Messages/...Map of generated decoders
//	                      |                  --> ObjectMeta, OwnerReference, ... (this package)
//	                      |                  --> Unmarshaled (the type's own Unmarshal on the field's bytes)
//	                      v
//	   on any error: *p zeroed, decoded again by the type's Unmarshal, whose error is returned
//
//	DecodeCompact (runtime/protowatch, for a kind registered with RegisterCompact):
//	   the same decoders; each SharedX field (share.go, shared_fields.go) reads its records' span
//	      --> the previous version's part when equal (Previous, asked once the metadata's name is decoded)
//	      --> else the Table's memo of the span's bytes (compact.Memoized)
//	      --> else decoded, then compact.ShareDecoded with its walk (and compact.Memoize)
//	   on any error (a shared field's records not consecutive included): the caller decodes by Unmarshal and walks
//
// # Semantics
//
// go-to-protobuf's (gogo protobuf's generated Unmarshal): fields in any
// order; a scalar, string or bytes field occurring twice keeps the last
// value; an embedded message occurring twice merges; repeated fields
// append, repeated integers packed or not; a map field is one entry per
// occurrence (key 1, value 2, a missing one zero); unknown fields are
// skipped; bytes are never nil; varints are read to ten bytes, their bits
// that fit the field's type kept. The fast path is stricter than
// Unmarshal where Unmarshal's reading is unusual (a map entry whose key
// runs past the entry, a field number out of int32's range, groups):
// it fails there, and Unmarshal decodes the message again, so what a
// caller gets, object or error, is always Unmarshal's.
//
// runtime/protowatch decodes the objects of watch events with the
// registered decoder (For) of its type; bench and internal/corev1gen
// prove the generated decoders of k8s.io/api/core/v1 differentially
// against Unmarshal (random objects, seed corpora, fuzzing).
package protodecode
