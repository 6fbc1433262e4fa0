package walks_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"unsafe"

	"github.com/informer-gen/informer-gen/runtime/compact"

	"example.com/kubebuilder/api/v1beta1"
	_ "example.com/kubebuilder/walks"
)

func TestImportingTheOutputPackageRegistersEveryVersionsObjectTypes(t *testing.T) {
	for _, tt := range []struct {
		example any
		want    bool
	}{
		{&v1beta1.Schedule{}, true},
		{&v1beta1.Shift{}, true},
		{&v1beta1.ScheduleList{}, false},
		{&v1beta1.Window{}, false},
	} {
		if got := compact.Registered(tt.example); got != tt.want {
			t.Errorf("compact.Registered(%T) = %v, want %v", tt.example, got, tt.want)
		}
	}
}

func TestWalkOfAnObjectWithEmbeddedMetadataKeepsItAndShares(t *testing.T) {
	const doc = `{"metadata": {"name": "s", "namespace": "ns", "labels": {"a": "b"}},
		"cron": "*/5 * * * *", "labels": {"team": "infra"},
		"windows": [{"Start": "01:00", "End": "02:00"}]}`
	decode := func() *v1beta1.Schedule {
		var s v1beta1.Schedule
		if err := json.Unmarshal([]byte(doc), &s); err != nil {
			t.Fatal(err)
		}
		return &s
	}
	table := compact.NewTable()
	objs := []*v1beta1.Schedule{decode(), decode(), decode()}
	for _, o := range objs {
		table.Object(o)
		if want := decode(); !reflect.DeepEqual(o, want) {
			t.Fatalf("compaction changed the object:\n got %+v\nwant %+v", o, want)
		}
	}
	b, c := objs[1], objs[2]
	if unsafe.StringData(b.Cron) != unsafe.StringData(c.Cron) || unsafe.StringData(b.Namespace) != unsafe.StringData(c.Namespace) {
		t.Error("equal strings of two objects are separate copies after compaction")
	}
	if unsafe.SliceData(b.Windows) != unsafe.SliceData(c.Windows) {
		t.Error("equal slices of structs of two objects are separate copies after compaction")
	}
}
