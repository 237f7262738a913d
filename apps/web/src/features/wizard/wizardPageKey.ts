/**
 * Which wizard page an address shows. The upload on /wizard/new turns the address into /wizard/<id>
 * of the template it has just made: that is the same page going on (its editor is already open and
 * may hold what the user typed), so it keeps its key. Any other change of address is another page
 * and starts afresh.
 */
export interface WizardPageIdentity {
  templateId: string;
  key: string;
}

export function wizardPageKey(previous: WizardPageIdentity | null, templateId: string, createdTemplateId: string | null): WizardPageIdentity {
  if (previous?.templateId === templateId) return previous;
  if (previous?.templateId === 'new' && createdTemplateId === templateId) return { templateId, key: previous.key };
  return { templateId, key: templateId };
}
