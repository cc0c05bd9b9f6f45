// Cloned voices, SIP carriers and campaign webhooks of a voice-calling platform as code.
package voiceplatform
