package decoding

import (
	"bytes"
	"runtime"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/mailru/easyjson/jlexer"
	corev1 "k8s.io/api/core/v1"
	sigsjson "sigs.k8s.io/json"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// BenchmarkDecodePod decodes the real-cluster-shaped Pods of podJSON,
// each from its own bytes, with every candidate: sigs.k8s.io/json (what
// client-go and our informers use today), alone and followed by the
// compaction walk; encoding/json/v2's reflective Unmarshal (from
// github.com/go-json-experiment/json) with v1's options, case-sensitive
// (it keeps no int64 in untyped values, so it is not a drop-in: measured
// as the fast library candidate); the generated decoder, alone, interning
// as it decodes,
// and followed by the walk; and, as the floor of any decoder on them, a
// bare scan of every token with the two tokenizers considered (jsontext,
// easyjson's jlexer). Each reports the CPU time of its thread per Pod
// (cpu-ns/op: on a shared machine wall time measures the load too) and
// that as a ratio to sigs.k8s.io/json's (x-sigs), run first; the garbage
// collector's background work is in neither:
//
//	go test -run '^$' -bench DecodePod -benchmem ./decoding
func BenchmarkDecodePod(b *testing.B) {
	pods := podJSON(b, 64)
	fn, ok := jsondecode.For[corev1.Pod]()
	if !ok {
		b.Fatal("no generated decoder for Pod")
	}
	var baseline float64
	run := func(name string, decode func(data []byte, tab *compact.Table)) {
		b.Run(name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			tab := compact.NewTable()
			start := threadCPU()
			for i := 0; b.Loop(); i++ {
				decode(pods[i%len(pods)], tab)
			}
			cpu := float64((threadCPU() - start).Nanoseconds()) / float64(b.N)
			if baseline == 0 {
				baseline = cpu
			}
			b.ReportMetric(cpu, "cpu-ns/op")
			b.ReportMetric(cpu/baseline, "x-sigs")
		})
	}
	run("sigs.k8s.io-json", func(data []byte, _ *compact.Table) { mustNil(b, reflectiveDecode(data)) })
	run("sigs.k8s.io-json+walk", func(data []byte, tab *compact.Table) {
		p := new(corev1.Pod)
		mustNil(b, sigsjson.UnmarshalCaseSensitivePreserveInts(data, p))
		tab.Object(p)
	})
	v1opts := jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsonv2.MatchCaseInsensitiveNames(false))
	run("json-v2-with-v1-options", func(data []byte, _ *compact.Table) {
		mustNil(b, jsonv2.Unmarshal(data, new(corev1.Pod), v1opts))
	})
	run("generated", func(data []byte, _ *compact.Table) { mustNil(b, jsondecode.Unmarshal(data, new(corev1.Pod), fn, nil)) })
	run("generated+intern", func(data []byte, tab *compact.Table) {
		mustNil(b, jsondecode.Unmarshal(data, new(corev1.Pod), fn, tab))
	})
	run("generated+intern+walk", func(data []byte, tab *compact.Table) {
		p := new(corev1.Pod)
		mustNil(b, jsondecode.Unmarshal(data, p, fn, tab))
		tab.Object(p)
	})
	d := jsontext.NewDecoder(bytes.NewReader(nil))
	run("scan-jsontext", func(data []byte, _ *compact.Table) { mustNil(b, scanJSONText(d, data)) })
	run("scan-jlexer", func(data []byte, _ *compact.Table) {
		l := jlexer.Lexer{Data: data}
		scanJLexer(&l)
		mustNil(b, l.Error())
	})
}

func reflectiveDecode(data []byte) error {
	return sigsjson.UnmarshalCaseSensitivePreserveInts(data, new(corev1.Pod))
}

func mustNil(tb testing.TB, err error) {
	if err != nil {
		tb.Fatal(err)
	}
}

// scanJSONText reads every token of b with jsontext, strings and numbers
// as raw values (what a decoder on jsontext does at the least).
func scanJSONText(d *jsontext.Decoder, b []byte) error {
	d.Reset(bytes.NewBuffer(b), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	for {
		var err error
		switch d.PeekKind() {
		case '"', '0':
			_, err = d.ReadValue()
		default:
			_, err = d.ReadToken()
		}
		if err != nil || d.StackDepth() == 0 {
			return err
		}
	}
}

// scanJLexer reads every token of the value at l with easyjson's jlexer.
func scanJLexer(l *jlexer.Lexer) {
	switch {
	case l.IsDelim('{'):
		l.Delim('{')
		for !l.IsDelim('}') && l.Ok() {
			l.UnsafeBytes()
			l.WantColon()
			scanJLexer(l)
			l.WantComma()
		}
		l.Delim('}')
	case l.IsDelim('['):
		l.Delim('[')
		for !l.IsDelim(']') && l.Ok() {
			scanJLexer(l)
			l.WantComma()
		}
		l.Delim(']')
	default:
		l.Raw()
	}
}
