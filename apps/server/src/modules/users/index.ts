/**
 * The users module's public surface: accounts (the users table), the plan and the monthly document
 * quota. Other modules and the HTTP layer use only what is exported here.
 */
export { userView, requireUser, getMe, updateMe, credits, isUpdatingBillingPlan } from './service.ts';
export { currentPeriod, getCredits, chargeDocuments, type Period, type Credits } from './quota.ts';
export { setPlanByEmail, usersReport, type PlanChange } from './admin.ts';
export { registerUserRoutes } from './routes.ts';
// The users table for sign-in and account changes (auth module), senders and mailings (the user's name, plan).
export {
  findUserById, findUserByEmail, emailTaken, insertUser, setPasswordHash, updateEmail, countChildUsers, deleteUser,
  type UserRow, type NewUser,
} from './repository.ts';
