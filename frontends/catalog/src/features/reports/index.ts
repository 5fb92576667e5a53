/** « Signaler » (listings, members, comments, messages) and « Bloquer ce membre ». */
export { BlockButton } from './BlockButton';
export { ReportButton } from './ReportButton';
