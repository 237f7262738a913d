/**
 * The wizard's step lives in the address (?step=1..4), so a reload and the browser's Back and Forward
 * keep the user where they were. The step in the store stays the one the wizard acts on: a step the
 * wizard moves to is pushed to the history; a step the address changes to (Back, Forward, a reload)
 * goes through the same rules as the stepper, and if they refuse it the address shows the step the
 * wizard stayed on. Every step opens scrolled to the top.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useStore } from 'react-redux';
import { useAppSelector } from '../../app/hooks.ts';
import type { RootState } from '../../app/store.ts';
import { LAST_STEP } from './stepRules.ts';
import { useRunStep } from './wizardHooks.ts';

const STEP_PARAM = 'step';

/** The 0-based step of ?step=1..4, or null when the address names none (or nonsense). */
export function stepFromSearch(value: string | null): number | null {
  if (value === null || !/^\d$/.test(value)) return null;
  const step = Number(value) - 1;
  return step >= 0 && step <= LAST_STEP ? step : null;
}

export function useStepInUrl(ready: boolean): void {
  const [params, setParams] = useSearchParams();
  const store = useStore<RootState>();
  const runStep = useRunStep();
  const step = useAppSelector((state) => state.wizard.activeStep);
  const urlStep = stepFromSearch(params.get(STEP_PARAM));
  const seen = useRef<{ step: number; url: number | null } | null>(null);

  useEffect(() => {
    if (!ready) return;
    const before = seen.current;
    seen.current = { step, url: urlStep };
    const show = (shown: number, replace: boolean) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set(STEP_PARAM, String(shown + 1));
        return next;
      }, { replace, preventScrollReset: true });
    const addressChanged = before === null ? urlStep !== null : urlStep !== before.url;
    if (addressChanged && urlStep !== null && urlStep !== step) {
      // Back, Forward or a reload asked for another step: the wizard's rules decide.
      void runStep(urlStep).then((outcome) => {
        if (outcome.kind !== 'changed') show(store.getState().wizard.activeStep, true);
      });
    } else if (urlStep !== step) {
      // The wizard moved (or the address has no step yet): record it, as a new history entry.
      show(step, before === null || urlStep === null);
    }
  }, [ready, step, urlStep, runStep, setParams, store]);

  // Each step opens at its top (a long step 3 left step 4 scrolled half way down).
  useLayoutEffect(() => {
    window.scrollTo({ top: 0, left: 0 });
  }, [step]);
}
