import Bowser from 'bowser';

/*
 * A sign-in's device as a person reads it ("Chrome 120 on Windows 10") instead of the raw
 * user-agent string; the parsing is bowser's, which is maintained against real browsers.
 */

/** The major version: '120.0.0.0' -> '120'; Safari's '17.1' stays '17.1'. */
function majorVersion(name: string, version: string | undefined): string {
  if (!version) return '';
  return name === 'Safari' ? version.split('.').slice(0, 2).join('.') : (version.split('.')[0] ?? '');
}

/** 'Windows 10', 'macOS Catalina', 'iOS 17.1', 'Android 14', 'Linux'. */
function osLabel(os: { name?: string; version?: string; versionName?: string }): string {
  if (!os.name) return '';
  const version = os.versionName ?? os.version;
  return version ? `${os.name} ${version}` : os.name;
}

/**
 * 'Chrome 120 on Windows 10', 'Safari 17.1 on iOS 17.1', 'Firefox 121' (no OS known),
 * 'Unknown device' when the string names no browser or system; the raw string stays in the title.
 */
export function describeDevice(userAgent: string | null | undefined): string {
  const ua = userAgent?.trim();
  if (!ua) return 'Unknown device';
  const parser = Bowser.getParser(ua);
  const browser = parser.getBrowser();
  const browserName = browser.name ?? '';
  const browserText = browserName ? `${browserName} ${majorVersion(browserName, browser.version)}`.trim() : '';
  const os = osLabel(parser.getOS());
  if (browserText && os) return `${browserText} on ${os}`;
  return browserText || os || 'Unknown device';
}
