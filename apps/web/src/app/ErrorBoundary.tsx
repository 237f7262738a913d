/** Catches render failures and shows "something went wrong" instead of a blank page (the screen reports the error). */
import { Component, type ReactNode } from 'react';
import SomethingWentWrong from '../features/errors/SomethingWentWrong.tsx';

interface Props {
  children: ReactNode;
  /** Changing it (for example the path) clears the error, so navigating away recovers. */
  resetKey?: string;
}

interface State {
  error: Error | null;
}

export default class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override render(): ReactNode {
    if (this.state.error) return <SomethingWentWrong error={this.state.error} />;
    return this.props.children;
  }
}
