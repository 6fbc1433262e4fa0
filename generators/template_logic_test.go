package generators

import (
	"strings"
	"testing"
	"text/template"
	"text/template/parse"

	"github.com/informer-gen/informer-gen/templates"
)

// TestTemplatesOnlyPrintTheModel keeps the decisions in Go: the templates
// print fields, range over lists and quote strings (printf "%q"); the
// choices they make are the code of a namespaced kind over that of a
// cluster-scoped one ({{if .Namespaced}}) and the watch of a kind that
// decodes itself from protobuf over the typed client's ({{if .Protobuf}}),
// the watch through the generated JSON decoders ({{if .JSONDecoders}}),
// the generated decoders a protobuf kind's watcher takes
// ({{if .ProtoDecoders}}, {{if .JSONStreamDecoder}}, {{if .WatchDecoders}})
// and what the raw streams import ({{if .RawStream}}, {{if .Decoded}},
// {{if .ImportsJSONDecode}}), flags the model computes. No other if, with, function (and, or,
// not, eq, len, index, ...) or variable assignment.
func TestTemplatesOnlyPrintTheModel(t *testing.T) {
	set, err := templates.Parse()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tmpl := range set.Templates() {
		if tmpl.Tree == nil {
			continue
		}
		checked++
		for _, problem := range templateLogic(tmpl.Tree.Root) {
			t.Errorf("%s: %s", tmpl.Name(), problem)
		}
	}
	if checked < 9 {
		t.Fatalf("checked %d templates, want every one of templates/", checked)
	}
}

func TestTemplateLogicIsFound(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{`{{if .Namespaced}}x{{end}}`, ""},
		{`{{if .Protobuf}}x{{end}}`, ""},
		{`{{range $v := .Versions}}{{$v.Name}}{{end}}`, ""},
		{`{{printf "%q" .Resource}}`, ""},
		{`{{if .Informer}}x{{end}}`, "{{if .Informer}}"},
		{`{{if and .Lister (not .UserExpansion)}}x{{end}}`, "{{if and .Lister (not .UserExpansion)}}"},
		{`{{with .Kind}}x{{end}}`, "{{with .Kind}}"},
		{`{{$t := printf "%s.%s" .A .B}}`, `{{$t := printf "%s.%s" .A .B}}`},
		{`{{or .A "x"}}`, `{{or .A "x"}}`},
		{`{{range .Kinds}}{{if .Informer}}x{{end}}{{end}}`, "{{if .Informer}}"},
	} {
		tmpl, err := template.New("t").Parse(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(templateLogic(tmpl.Tree.Root), "; ")
		if !strings.Contains(got, tt.want) || (tt.want == "") != (got == "") {
			t.Errorf("templateLogic(%s) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// templateLogic returns the actions under n that decide instead of print.
func templateLogic(n parse.Node) []string {
	var out []string
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return nil
		}
		for _, c := range n.Nodes {
			out = append(out, templateLogic(c)...)
		}
	case *parse.IfNode:
		if p := n.Pipe.String(); p != ".Namespaced" && p != ".Protobuf" && p != ".JSONDecoders" && p != ".RawStream" && p != ".ProtoDecoders" && p != ".Decoded" &&
			p != ".JSONStreamDecoder" && p != ".WatchDecoders" && p != ".ImportsJSONDecode" {
			out = append(out, "decides in the template: {{if "+n.Pipe.String()+"}}")
		}
		out = append(out, templateLogic(n.List)...)
		out = append(out, templateLogic(n.ElseList)...)
	case *parse.WithNode:
		out = append(out, "decides in the template: {{with "+n.Pipe.String()+"}}")
	case *parse.RangeNode:
		out = append(out, pipeLogic(n.Pipe, true)...)
		out = append(out, templateLogic(n.List)...)
		out = append(out, templateLogic(n.ElseList)...)
	case *parse.ActionNode:
		out = append(out, pipeLogic(n.Pipe, false)...)
	}
	return out
}

// pipeLogic returns the problem with a pipeline that assigns a variable
// (other than range's) or calls a function other than printf "%q".
func pipeLogic(p *parse.PipeNode, inRange bool) []string {
	if len(p.Decl) > 0 && !inRange {
		return []string{"computes in the template: {{" + p.String() + "}}"}
	}
	for _, cmd := range p.Cmds {
		ident, ok := cmd.Args[0].(*parse.IdentifierNode)
		if !ok {
			continue
		}
		if ident.Ident == "printf" && len(cmd.Args) == 3 && cmd.Args[1].String() == `"%q"` {
			continue
		}
		return []string{"computes in the template: {{" + p.String() + "}}"}
	}
	return nil
}
