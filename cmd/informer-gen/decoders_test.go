package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The JSON decoders are written by default; --json-decoders (the flag
// that turned them on before they were the default) still parses, and
// --json-decoders=false leaves them out.
func TestJSONDecodersAreWrittenUnlessTurnedOff(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
		want  bool
	}{
		{name: "by default", want: true},
		{name: "--json-decoders, as existing invocations pass it", flags: []string{"--json-decoders"}, want: true},
		{name: "--json-decoders=true", flags: []string{"--json-decoders=true"}, want: true},
		{name: "--json-decoders=false", flags: []string{"--json-decoders=false"}, want: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := module(t, map[string]string{"apis/bad/v1/register.go": register, "apis/bad/v1/types.go": goodTypes, "apis/bad/v1/doc.go": "package v1\n"})
			t.Chdir(dir)
			args := append(tc.flags, "--output-dir", "./out", "--versioned-clientset-package", "example.com/bad/clientset", "./apis/...")
			var stdout, stderr bytes.Buffer
			if code := run(args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
			}
			_, err := os.Stat(filepath.Join(dir, "out", "informers", "externalversions", "bad", "v1", "zz_generated.decoders.go"))
			if got := err == nil; got != tc.want {
				t.Errorf("zz_generated.decoders.go written: %v (%v), want %v", got, err, tc.want)
			}
		})
	}
}

// protoTypes declares a type with go-to-protobuf's struct tags and
// Unmarshal method, as k8s.io/api's types have them.
const protoTypes = `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +genclient
type Widget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\" protobuf:\"bytes,1,opt,name=metadata\"`" + `
}

func (m *Widget) Unmarshal(dAtA []byte) error { return nil }
`

// The protobuf decoders are written by default, for the types with
// go-to-protobuf's tags; --proto-decoders=false leaves them out.
func TestProtoDecodersAreWrittenUnlessTurnedOff(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
		want  bool
	}{
		{name: "by default", want: true},
		{name: "--proto-decoders=true", flags: []string{"--proto-decoders=true"}, want: true},
		{name: "--proto-decoders=false", flags: []string{"--proto-decoders=false"}, want: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := module(t, map[string]string{"apis/bad/v1/register.go": register, "apis/bad/v1/types.go": protoTypes, "apis/bad/v1/doc.go": "package v1\n"})
			t.Chdir(dir)
			args := append(tc.flags, "--output-dir", "./out", "--versioned-clientset-package", "example.com/bad/clientset", "./apis/...")
			var stdout, stderr bytes.Buffer
			if code := run(args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
			}
			_, err := os.Stat(filepath.Join(dir, "out", "informers", "externalversions", "bad", "v1", "zz_generated.protodecoders.go"))
			if got := err == nil; got != tc.want {
				t.Errorf("zz_generated.protodecoders.go written: %v (%v), want %v", got, err, tc.want)
			}
		})
	}
}
