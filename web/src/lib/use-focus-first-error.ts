import { useEffect, type RefObject } from 'react';

/**
 * After a submit that failed validation, moves focus to the first invalid input of the
 * form, so keyboard and screen-reader users land on what needs fixing.
 */
export function useFocusFirstError(formRef: RefObject<HTMLFormElement | null>, attempt: number): void {
  useEffect(() => {
    if (attempt === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [formRef, attempt]);
}
