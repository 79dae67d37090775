import { useEffect, useId, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { AltchaWidgetElement } from 'altcha';

/** Where the widget fetches its proof-of-work challenge. */
export const CAPTCHA_CHALLENGE_URL = '/functions/v1/captcha-challenge';

export type CaptchaWidgetHandle = {
  /** Back to unsolved; the token reported so far is void. */
  reset: () => void;
};

type CaptchaWidgetProps = {
  /** The payload once solved, null whenever it stops being valid (reset, expiry, error). */
  onToken: (token: string | null) => void;
  /** A message shown under the widget, e.g. 'Please complete the verification challenge.' */
  error?: string | null;
  ref?: Ref<CaptchaWidgetHandle>;
};

type StateChangeDetail = { state?: string; payload?: string | null };

/**
 * The bot check: the ALTCHA widget (self-hosted proof of work, dark theme). Its script
 * is loaded only when a form shows the widget, so the first screen does not carry it.
 */
export function CaptchaWidget({ onToken, error, ref }: CaptchaWidgetProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const widgetRef = useRef<AltchaWidgetElement | null>(null);
  const onTokenRef = useRef(onToken);
  onTokenRef.current = onToken;
  const [loaded, setLoaded] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  const errorId = useId();

  useImperativeHandle(
    ref,
    () => ({
      reset: () => {
        const widget = widgetRef.current;
        if (widget && typeof widget.reset === 'function') widget.reset();
        onTokenRef.current(null);
      },
    }),
    [],
  );

  useEffect(() => {
    let cancelled = false;
    let widget: AltchaWidgetElement | null = null;

    const onStateChange = (event: Event) => {
      const detail = (event as CustomEvent<StateChangeDetail>).detail ?? {};
      onTokenRef.current(detail.state === 'verified' && detail.payload ? detail.payload : null);
    };
    const onExpired = () => onTokenRef.current(null);

    import('altcha')
      .then(() => {
        const host = hostRef.current;
        if (cancelled || !host) return;
        widget = document.createElement('altcha-widget');
        widget.setAttribute('challenge', CAPTCHA_CHALLENGE_URL);
        widget.setAttribute('theme', 'dark');
        widget.setAttribute('name', 'captcha_token');
        widget.setAttribute('language', 'en');
        widget.addEventListener('statechange', onStateChange);
        widget.addEventListener('expired', onExpired);
        host.appendChild(widget);
        widgetRef.current = widget;
        setLoaded(true);
      })
      .catch(() => {
        if (!cancelled) setLoadFailed(true);
      });

    return () => {
      cancelled = true;
      if (widget) {
        widget.removeEventListener('statechange', onStateChange);
        widget.removeEventListener('expired', onExpired);
        widget.remove();
      }
      widgetRef.current = null;
    };
  }, []);

  return (
    <div className="captcha" aria-describedby={error ? errorId : undefined}>
      <div ref={hostRef} className="captcha__host" />
      {!loaded && !loadFailed && (
        <p className="captcha__placeholder" role="status">
          Loading verification...
        </p>
      )}
      {loadFailed && (
        <p className="captcha__placeholder" role="alert">
          The verification challenge could not be loaded. Please reload the page.
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error captcha__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
