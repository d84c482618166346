//go:build e2e

package site

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// browser drives one headless Chromium over the DevTools protocol on a
// pipe (--remote-debugging-pipe: commands on its fd 3, replies and
// events on its fd 4, each message ended by a NUL), so that a test can
// type into a page as a person does, with no driver to install.
type browser struct {
	t       *testing.T
	cmd     *exec.Cmd
	in      *os.File
	out     *bufio.Reader
	next    int
	session string
	// events are the console messages, uncaught exceptions and failed
	// requests the page has seen, in words.
	events []string
}

func startBrowser(t *testing.T, width, height int) *browser {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium")
	}
	// Minutes: on a machine shared by many builds a page of 10,000 rows
	// took two of them to load while its browser used seven seconds of
	// CPU.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	t.Cleanup(cancel)
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	evR, evW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
		"--user-data-dir="+t.TempDir(), fmt.Sprintf("--window-size=%d,%d", width, height), "about:blank")
	cmd.ExtraFiles = []*os.File{cmdR, evW}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmdR.Close()
	evW.Close()
	b := &browser{t: t, cmd: cmd, in: cmdW, out: bufio.NewReaderSize(evR, 1<<20)}
	t.Cleanup(func() {
		cmdW.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		evR.Close()
		t.Logf("Chromium at %d px used %v of CPU", width, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	})
	var target struct{ TargetID string }
	b.call("Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var attached struct{ SessionID string }
	b.call("Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	b.session = attached.SessionID
	for _, domain := range []string{"Runtime.enable", "Log.enable", "Network.enable", "Page.enable"} {
		b.call(domain, nil, nil)
	}
	b.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}, nil)
	return b
}

// call sends one command and waits for its reply, keeping the events
// that arrive meanwhile; result, when not nil, receives the reply's
// result.
func (b *browser) call(method string, params any, result any) {
	b.t.Helper()
	b.next++
	msg := map[string]any{"id": b.next, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if b.session != "" {
		msg["sessionId"] = b.session
	}
	data, _ := json.Marshal(msg)
	if _, err := b.in.Write(append(data, 0)); err != nil {
		b.t.Fatalf("%s: %v", method, err)
	}
	for {
		line, err := b.out.ReadBytes(0)
		if err != nil {
			b.t.Fatalf("%s: %v", method, err)
		}
		var reply struct {
			ID     int
			Method string
			Result json.RawMessage
			Params json.RawMessage
			Error  *struct{ Message string }
		}
		if err := json.Unmarshal(line[:len(line)-1], &reply); err != nil {
			b.t.Fatalf("%s: %v", method, err)
		}
		if reply.Method != "" {
			b.event(reply.Method, reply.Params)
			continue
		}
		if reply.ID != b.next {
			continue
		}
		if reply.Error != nil {
			b.t.Fatalf("%s: %s", method, reply.Error.Message)
		}
		if result != nil {
			if err := json.Unmarshal(reply.Result, result); err != nil {
				b.t.Fatalf("%s: %v", method, err)
			}
		}
		return
	}
}

func (b *browser) event(method string, params json.RawMessage) {
	switch method {
	case "Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Log.entryAdded", "Network.loadingFailed":
		b.events = append(b.events, method+": "+string(params))
	}
}

// eval evaluates a script in the page and returns its value as JSON.
func (b *browser) eval(script string) json.RawMessage {
	b.t.Helper()
	var r struct {
		Result           struct{ Value json.RawMessage }
		ExceptionDetails json.RawMessage
	}
	b.call("Runtime.evaluate", map[string]any{"expression": script, "returnByValue": true, "awaitPromise": true}, &r)
	if r.ExceptionDetails != nil {
		b.t.Fatalf("%s: %s", script, r.ExceptionDetails)
	}
	return r.Result.Value
}

// open loads a page and waits until it and everything it asks for have
// loaded.
func (b *browser) open(url string) {
	b.t.Helper()
	b.call("Page.navigate", map[string]any{"url": url}, nil)
	for i := 0; ; i++ {
		var state string
		_ = json.Unmarshal(b.eval("document.readyState + ' ' + location.href"), &state)
		if strings.HasPrefix(state, "complete "+url) || strings.HasPrefix(state, "complete "+strings.ReplaceAll(url, " ", "%20")) {
			return
		}
		if i > 600 {
			b.t.Fatalf("%s did not load: %s", url, state)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// typeText types text into the focused field, a character at a time, as
// key presses insert it.
func (b *browser) typeText(text string) {
	for _, r := range text {
		b.call("Input.insertText", map[string]any{"text": string(r)}, nil)
	}
}

// screenshot writes the whole page as a PNG into the folder
// DRP2_SITE_SCREENSHOTS names, when it names one.
func (b *browser) screenshot(name string) {
	dir := os.Getenv("DRP2_SITE_SCREENSHOTS")
	if dir == "" {
		return
	}
	var shot struct{ Data string }
	b.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": false}, &shot)
	data, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/"+name+".png", data, 0o644); err != nil {
		b.t.Fatal(err)
	}
}
