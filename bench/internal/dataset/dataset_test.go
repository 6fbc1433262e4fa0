package dataset

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

func TestIndexAndVersionParseWhatNameAndListMake(t *testing.T) {
	for _, tc := range []struct {
		name string
		want int
	}{
		{Name(0), 0}, {Name(99_999), 99_999}, {"cm-", -1}, {"cm-1x", -1}, {"other-1", -1}, {"", -1},
	} {
		if got := Index(tc.name); got != tc.want {
			t.Errorf("Index(%q) = %d, want %d", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		rv   string
		want int64
	}{{"1", 1}, {"200000", 200_000}, {"", -1}, {"12a", -1}} {
		if got := Version(tc.rv); got != tc.want {
			t.Errorf("Version(%q) = %d, want %d", tc.rv, got, tc.want)
		}
	}
}

func TestEventsEndInFinalVersionsWithStableIdentity(t *testing.T) {
	c := Config{Objects: 5, Namespaces: 2, Updates: 12}
	list := c.List()
	if got := len(list.Items); got != c.Objects {
		t.Fatalf("list has %d items, want %d", got, c.Objects)
	}
	state := map[string]*corev1.ConfigMap{}
	for i := range list.Items {
		o := &list.Items[i]
		if o.Namespace != Namespace(i%c.Namespaces) {
			t.Errorf("object %d in namespace %q", i, o.Namespace)
		}
		state[o.Name] = o
	}
	for _, ev := range c.Events() {
		o := ev.Object.(*corev1.ConfigMap)
		prev := state[o.Name]
		if prev == nil || prev.UID != o.UID || prev.Namespace != o.Namespace {
			t.Fatalf("update of %s changes identity", o.Name)
		}
		if Version(o.ResourceVersion) <= Version(prev.ResourceVersion) {
			t.Fatalf("update of %s does not increase the resourceVersion", o.Name)
		}
		if o.Data["value"] != o.ResourceVersion {
			t.Errorf("update of %s carries data %q", o.Name, o.Data["value"])
		}
		state[o.Name] = o
	}
	for i, want := range c.FinalVersions() {
		if got := Version(state[Name(i)].ResourceVersion); got != want {
			t.Errorf("object %d ends at %d, FinalVersions says %d", i, got, want)
		}
	}
	if got := (Config{Objects: 5, Updates: 3}).Updated(); got != 3 {
		t.Errorf("Updated = %d, want 3", got)
	}
}
