package generators

import "testing"

func TestResourceNamesHaveOneSource(t *testing.T) {
	n := newResourceNamer(map[string]string{"Endpoints": "Endpoints"})
	tests := []struct {
		typ, override, plural, resource string
	}{
		{"NetworkPolicy", "", "NetworkPolicies", "networkpolicies"},
		{"Ingress", "", "Ingresses", "ingresses"},
		{"Endpoints", "", "Endpoints", "endpoints"},
		{"Widget", "", "Widgets", "widgets"},
		{"Thing", "thingies", "Things", "thingies"},
	}
	for _, tt := range tests {
		if got := n.plural(tt.typ); got != tt.plural {
			t.Errorf("plural(%s) = %s, want %s", tt.typ, got, tt.plural)
		}
		if got := n.resource(tt.typ, tt.override); got != tt.resource {
			t.Errorf("resource(%s, %q) = %s, want %s", tt.typ, tt.override, got, tt.resource)
		}
	}
}

func TestGroupNamesAreValidGo(t *testing.T) {
	tests := []struct {
		in, pkg, goName string
	}{
		{"batch-jobs.example.io", "batchjobsexampleio", "BatchJobs"},
		{"batch-jobs", "batchjobs", "BatchJobs"},
		{"rbac.authorization.k8s.io", "rbacauthorizationk8sio", "Rbac"},
		{"", "group", "Core"},
		{"1st", "group1st", "Group1st"},
		{"go", "groupgo", "Go"},
	}
	for _, tt := range tests {
		if got := goPackageName(tt.in); got != tt.pkg {
			t.Errorf("goPackageName(%q) = %q, want %q", tt.in, got, tt.pkg)
		}
		if got := groupGoName(tt.in); got != tt.goName {
			t.Errorf("groupGoName(%q) = %q, want %q", tt.in, got, tt.goName)
		}
	}
}
