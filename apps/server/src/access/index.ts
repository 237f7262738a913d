/** The access module: the principal a request runs as, and the one decision of what it may do. */
export { principalOf, isChild, type Principal, type PrincipalFacts } from './principal.ts';
export { can, assertCan, accountFor, actorFor, type Action, type Resource } from './can.ts';
