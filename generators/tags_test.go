package generators

import (
	"strings"
	"testing"
)

func TestParseTypeTagsVerbs(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string // sorted verbs, "" for none
		nonNS bool
	}{
		{"all verbs", []string{"+genclient"}, "apply applyStatus create delete deleteCollection get list patch update updateStatus watch", false},
		{"no genclient", []string{"Widget is a type."}, "", false},
		{"noVerbs", []string{"+genclient", "+genclient:noVerbs"}, "", false},
		{"readonly", []string{"+genclient", "+genclient:readonly"}, "get list watch", false},
		{"onlyVerbs", []string{"+genclient", "+genclient:onlyVerbs=list,watch"}, "list watch", false},
		{"skipVerbs", []string{"+genclient", "+genclient:skipVerbs=watch,create,update,updateStatus,delete,deleteCollection,patch,apply,applyStatus"}, "get list", false},
		{"nonNamespaced", []string{"+genclient", "+genclient:nonNamespaced", "+genclient:readonly"}, "get list watch", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tags, err := parseTypeTags(tt.lines)
			if err != nil {
				t.Fatal(err)
			}
			var verbs []string
			for _, v := range supportedVerbs {
				if tags.verbs[v] {
					verbs = append(verbs, v)
				}
			}
			sorted := strings.Fields(tt.want)
			if strings.Join(verbs, " ") != strings.Join(sortStrings(sorted), " ") {
				t.Errorf("verbs = %v, want %v", verbs, sorted)
			}
			if tags.nonNamespaced != tt.nonNS {
				t.Errorf("nonNamespaced = %v, want %v", tags.nonNamespaced, tt.nonNS)
			}
		})
	}
}

func sortStrings(s []string) []string {
	// keep supportedVerbs order, which is what the test compares against
	var out []string
	for _, v := range supportedVerbs {
		for _, w := range s {
			if v == w {
				out = append(out, v)
			}
		}
	}
	return out
}

func TestParseTypeTagsRejectsBadTags(t *testing.T) {
	tests := []struct {
		lines   []string
		wantErr string
	}{
		{[]string{"+genclient", "+genclient:nonNamespace"}, "unknown tag +genclient:nonNamespace"},
		{[]string{"+genclient=false"}, "malformed tag +genclient=false"},
		{[]string{"+genclient", "+genclient:skipVerbs=wibble"}, `unknown verb "wibble"`},
		{[]string{"+genclient", "+genclient:onlyVerbs="}, "malformed tag +genclient:onlyVerbs"},
		{[]string{"+genclient", "+genclient:onlyVerbs=list", "+genclient:skipVerbs=list"}, `verb "list" used both`},
		{[]string{"+genclient", "+resourceName=Not_A_Resource"}, "malformed tag +resourceName=Not_A_Resource"},
		{[]string{"+genclient", "+genclient:nonNamespaced=yes"}, "it takes no value"},
	}
	for _, tt := range tests {
		t.Run(tt.wantErr, func(t *testing.T) {
			_, err := parseTypeTags(tt.lines)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestParsePackageTags(t *testing.T) {
	d := &declarations{packageComments: []fileComment{
		{file: "doc.go", lines: []string{"Package v1 ...", "+groupName=batch-jobs.example.io", "+k8s:informer-gen=false"}},
		{file: "register.go", lines: []string{"+groupName=batch-jobs.example.io"}},
	}}
	tags, err := parsePackageTags(d)
	if err != nil {
		t.Fatal(err)
	}
	if tags.groupName == nil || *tags.groupName != "batch-jobs.example.io" || tags.informers || !tags.listers {
		t.Fatalf("tags = %+v", tags)
	}

	d.packageComments[1].lines = []string{"+groupName=other.example.io"}
	if _, err := parsePackageTags(d); err == nil || !strings.Contains(err.Error(), "conflicting package tags (doc.go: +groupName=batch-jobs.example.io) and (register.go: +groupName=other.example.io)") {
		t.Fatalf("error = %v, want a conflict naming both files", err)
	}
	for _, bad := range []string{"+groupName=Bad_Group", "+k8s:lister-gen=maybe", "+groupGoName=not-go"} {
		d := &declarations{packageComments: []fileComment{{file: "doc.go", lines: []string{bad}}}}
		if _, err := parsePackageTags(d); err == nil || !strings.Contains(err.Error(), "malformed tag") {
			t.Errorf("%s: error = %v, want malformed tag", bad, err)
		}
	}
}
