/** Catches render failures and shows "something went wrong" (support notified) instead of a blank page. */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import SomethingWentWrong from '../features/errors/SomethingWentWrong.tsx';

interface Props {
  children: ReactNode;
  /** Changing it (for example the path) clears the error, so navigating away recovers. */
  resetKey?: string;
}

interface State {
  error: Error | null;
}

/** Failures go to the console here; an error-reporting service hooks in at this one place. */
export function reportError(error: unknown, info?: ErrorInfo): void {
  console.error('Sheaf render failure', error, info?.componentStack ?? '');
}

export default class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportError(error, info);
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override render(): ReactNode {
    if (this.state.error) return <SomethingWentWrong />;
    return this.props.children;
  }
}
