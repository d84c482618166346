package drp2

import "github.com/drp2/drp2-fixtures/model"

// hello opens negotiation. It is valid only on a fresh stream, and a major
// version other than the one this runtime implements fails at once
// (LIFETIMES.md, Session State rules 2 and 5; VERSIONING.md rule 4).
func (s *state) hello() *model.Failure {
	if s.broken(ruleHandshakeOnce, s.session != sessionFresh) {
		return s.fail(ruleHandshakeOnce, "", "HelloRenderer is valid only as the opening of a fresh stream; negotiation already started")
	}
	if f := s.checkVersion(); f != nil {
		return f
	}
	s.session = sessionPending
	return nil
}

// helloReply completes or fails the handshake. It needs a pending
// HelloRenderer and may not be repeated (Session State rules 3-5). Its
// version is checked whatever its status: an unknown major version fails
// immediately (VERSIONING.md rule 4), even in a reply that reports failure.
func (s *state) helloReply() *model.Failure {
	if s.broken(ruleHandshakeFirst, s.session == sessionFresh) {
		return s.fail(ruleHandshakeFirst, "", "RendererHelloReply needs a pending HelloRenderer; none was sent")
	}
	if s.broken(ruleHandshakeOnce, s.session != sessionPending) {
		return s.fail(ruleHandshakeOnce, "", "RendererHelloReply may not be repeated; the handshake already completed")
	}
	if f := s.checkVersion(); f != nil {
		return f
	}
	if s.w.Status == "ok" {
		s.session = sessionReady
	} else {
		// COMMANDS.md, RendererHelloReply rule 2: any other status fails
		// the handshake for the rest of the stream.
		s.session = sessionFailed
	}
	return nil
}

func (s *state) checkVersion() *model.Failure {
	if s.broken(ruleDecode, s.w.Version == nil) {
		return s.fail(ruleDecode, "/version", "field version is missing")
	}
	major, f := s.num(s.w.Version.Major, "/version/major")
	if f != nil {
		return f
	}
	if s.broken(ruleVersionMajor, major.val.isBig() || major.val.u != supportedMajor) {
		// Named as written: the canonical key of a huge id is no spelling a
		// reader would recognise.
		return s.fail(ruleVersionMajor, "/version/major", "protocol major version %s is not supported; this runtime accepts major version %d", s.w.Version.Major, supportedMajor)
	}
	return nil
}

// errorCmd accepts diagnostic output once the stream exists, in any session
// state, without changing it (COMMANDS.md, Error; Session State rule 6).
func (s *state) errorCmd() *model.Failure {
	if s.broken(ruleErrorAfterHello, s.session == sessionFresh) {
		return s.fail(ruleErrorAfterHello, "", "Error is valid only after HelloRenderer has opened the stream")
	}
	return nil
}

// requireReady guards every active command (Session State rule 7).
func (s *state) requireReady() *model.Failure {
	if !s.broken(ruleNeedsReady, s.session != sessionReady) {
		return nil
	}
	switch s.session {
	case sessionFresh:
		return s.fail(ruleNeedsReady, "", "the stream must open with HelloRenderer and a successful RendererHelloReply before active commands")
	case sessionPending:
		return s.fail(ruleNeedsReady, "", "the handshake is still pending: active commands need a successful RendererHelloReply first")
	}
	return s.fail(ruleNeedsReady, "", "the handshake failed; active commands are invalid for the rest of the stream")
}
