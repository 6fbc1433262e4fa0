package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

var (
	peerColor = color.RGBA{R: 0x4c, G: 0x72, B: 0xb0, A: 0xff}
	oursColor = color.RGBA{R: 0xdd, G: 0x84, B: 0x52, A: 0xff}
)

// panel is one bar chart of the figure: the median of each metric for
// both subjects.
type panel struct {
	title, unit string
	keys        []string
	labels      []string
	scale       float64 // divides the values
}

var panels = []panel{
	{title: "Update events/s (higher is better)", unit: "thousand events/s", keys: []string{"updates1", "updates4"}, labels: []string{"1 handler", "4 handlers"}, scale: 1000},
	{title: "Heap per cached object (lower is better)", unit: "bytes/object beyond the object", keys: []string{"overhead"}, labels: []string{"overhead"}, scale: 1},
	{title: "Heap growth, stalled handler (lower is better)", unit: "MiB", keys: []string{"stalled", "stalledlatest"}, labels: []string{"default", "ours LatestOnly"}, scale: 1},
}

// writeChart draws the panels side by side into path (.png or .svg).
func writeChart(path string, res *results) error {
	plots := make([][]*plot.Plot, 1)
	for _, pn := range panels {
		p, err := pn.plot(res)
		if err != nil {
			return err
		}
		plots[0] = append(plots[0], p)
	}
	w, h := vg.Length(len(panels))*3.6*vg.Inch, 3.4*vg.Inch
	var c interface {
		vg.CanvasSizer
	}
	svg := strings.HasSuffix(path, ".svg")
	if svg {
		c = vgsvg.New(w, h)
	} else {
		c = vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))
	}
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: 1, Cols: len(panels), PadX: vg.Millimeter * 4, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(plots, tiles, dc)
	for i, p := range plots[0] {
		p.Draw(canvases[0][i])
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if svg {
		_, err = c.(*vgsvg.Canvas).WriteTo(f)
	} else {
		_, err = vgimg.PngCanvas{Canvas: c.(*vgimg.Canvas)}.WriteTo(f)
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// plot makes the bar chart of pn.
func (pn panel) plot(res *results) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = pn.title
	p.Y.Label.Text = pn.unit
	p.Y.Min = 0
	w := vg.Points(22)
	top := 0.0
	for i, s := range []struct {
		name  string
		label string
		c     color.Color
	}{{peer, "client-go", peerColor}, {ours, "ours", oursColor}} {
		vals := make(plotter.Values, len(pn.keys))
		for k, key := range pn.keys {
			vs := res.get(key, s.name)
			if s.name == peer {
				vs = res.peerValues(res.metric(key))
			}
			vals[k] = vs.median() / pn.scale
			top = max(top, vals[k])
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, fmt.Errorf("chart %q: %w", pn.title, err)
		}
		bars.Color = s.c
		bars.LineStyle.Width = 0
		bars.Offset = w * vg.Length(2*i-1) / 2
		p.Add(bars)
		p.Legend.Add(s.label, bars)
	}
	// Headroom above the bars for the legend.
	p.Y.Max = top * 1.35
	p.Legend.Top = true
	p.NominalX(pn.labels...)
	return p, nil
}
