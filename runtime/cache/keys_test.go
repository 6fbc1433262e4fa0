package cache

import "testing"

// TestMetaNamespaceKeyFormatRoundTrips pins the one key format: built by
// metaNamespaceKey (and MetaNamespaceKeyFunc, ObjectName.String), matched by
// isMetaNamespaceKey and parsed back by SplitMetaNamespaceKey.
func TestMetaNamespaceKeyFormatRoundTrips(t *testing.T) {
	tests := []struct {
		namespace, name, key string
	}{
		{"ns", "a", "ns/a"},
		{"", "node-1", "node-1"},
		{"kube-system", "x.y-z", "kube-system/x.y-z"},
	}
	for _, tc := range tests {
		if got := metaNamespaceKey(tc.namespace, tc.name); got != tc.key {
			t.Errorf("metaNamespaceKey(%q, %q) = %q, want %q", tc.namespace, tc.name, got, tc.key)
		}
		if got, _ := MetaNamespaceKeyFunc(testObject(tc.namespace, tc.name, "1")); got != tc.key {
			t.Errorf("MetaNamespaceKeyFunc(%s/%s) = %q, want %q", tc.namespace, tc.name, got, tc.key)
		}
		if got := NewObjectName(tc.namespace, tc.name).String(); got != tc.key {
			t.Errorf("ObjectName{%q, %q}.String() = %q, want %q", tc.namespace, tc.name, got, tc.key)
		}
		if !isMetaNamespaceKey(tc.key, tc.namespace, tc.name) {
			t.Errorf("isMetaNamespaceKey(%q, %q, %q) = false", tc.key, tc.namespace, tc.name)
		}
		ns, name, err := SplitMetaNamespaceKey(tc.key)
		if err != nil || ns != tc.namespace || name != tc.name {
			t.Errorf("SplitMetaNamespaceKey(%q) = %q, %q, %v", tc.key, ns, name, err)
		}
	}
	mismatches := []struct{ key, namespace, name string }{
		{"ns/a", "ns", "b"},
		{"ns/a", "", "a"},
		{"a", "ns", "a"},
		{"nsx/a", "ns", "a"},
		{"ns/ab", "ns", "a"},
	}
	for _, m := range mismatches {
		if isMetaNamespaceKey(m.key, m.namespace, m.name) {
			t.Errorf("isMetaNamespaceKey(%q, %q, %q) = true", m.key, m.namespace, m.name)
		}
	}
	if _, _, err := SplitMetaNamespaceKey("a/b/c"); err == nil {
		t.Error("SplitMetaNamespaceKey(a/b/c) succeeded")
	}
}

// MetaNamespaceKeyFunc takes what client-go's takes: objects with metadata
// and ExplicitKey; anything else, a plain string included, is client-go's
// error.
func TestMetaNamespaceKeyFuncInputs(t *testing.T) {
	tests := []struct {
		name    string
		obj     any
		want    string
		wantErr string
	}{
		{"object", testObject("ns", "a", "1"), "ns/a", ""},
		{"explicit key", ExplicitKey("ns/b"), "ns/b", ""},
		{"plain string", "ns/c", "", "object has no meta: object does not implement the Object interfaces"},
		{"integer", 7, "", "object has no meta: object does not implement the Object interfaces"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MetaNamespaceKeyFunc(tt.obj)
			errText := ""
			if err != nil {
				errText = err.Error()
			}
			if got != tt.want || errText != tt.wantErr {
				t.Errorf("MetaNamespaceKeyFunc(%v) = %q, %q; want %q, %q", tt.obj, got, errText, tt.want, tt.wantErr)
			}
		})
	}
}
